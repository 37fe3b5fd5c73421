import { type Alert, AlertSchema } from '@artemis-studio/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { Access } from '../access/permission';
import { Id } from '../http/validation.pipe';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { AlertsRepository } from './alerts.repository';
import { Describe } from '../openapi/operation';

/** One alert of a cluster, for everyone with a role on it. */
@Controller('api/v1/clusters/:id')
export class ClusterAlertsController {
  constructor(private readonly alerts: AlertsRepository) {}

  @Get('alerts/:alertId')
  @Describe({
    summary: 'One alert',
    tag: 'alerts',
    status: 200,
    response: AlertSchema,
  })
  @Access.cluster('viewer')
  async alert(@Cluster() cluster: RegisteredCluster, @Param('alertId', Id) alertId: string): Promise<Alert> {
    return this.alerts.get(cluster.id, alertId);
  }
}
