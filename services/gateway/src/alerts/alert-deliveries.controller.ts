import {
  DeliveryQuerySchema,
  type DeliveryList,
  type DeliveryQuery,
  DeliveryListSchema,
} from '@artemis-studio/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { Valid } from '../http/validation.pipe';
import { AlertsRepository } from './alerts.repository';
import { Describe } from '../openapi/operation';

/** The delivery log: every notification a cluster's alerts owed, its tries and its last error. */
@Controller('api/v1/clusters/:id')
export class AlertDeliveriesController {
  constructor(private readonly alerts: AlertsRepository) {}

  @Get('alert-deliveries')
  @Describe({
    summary: 'The delivery log: every notification owed, its tries and its last error, newest first',
    tag: 'alerts',
    query: DeliveryQuerySchema,
    status: 200,
    response: DeliveryListSchema,
  })
  @Access.cluster('viewer')
  async deliveries(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(DeliveryQuerySchema, 'delivery query')) query: DeliveryQuery,
  ): Promise<DeliveryList> {
    return { items: await this.alerts.deliveries(cluster.id, query.alert, query.limit) };
  }
}
