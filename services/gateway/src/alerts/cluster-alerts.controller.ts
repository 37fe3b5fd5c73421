import {
  type Alert,
  AlertSchema,
  SubjectActionListSchema,
  type SubjectActionList,
} from '@artemis-studio/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { Access } from '../access/permission';
import { Id } from '../http/validation.pipe';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { AlertsRepository } from './alerts.repository';
import { AlertActionQueries } from './alert-actions.queries';
import { Describe } from '../openapi/operation';

/** One alert of a cluster, for everyone with a role on it. */
@Controller('api/v1/clusters/:id')
export class ClusterAlertsController {
  constructor(
    private readonly alerts: AlertsRepository,
    private readonly actions: AlertActionQueries,
  ) {}

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

  /**
   * What people did to the alert's queue or address around it, from the audit trail: shown to all
   * who see the cluster, since who purged the queue is what the on-call engineer asks first.
   */
  @Get('alerts/:alertId/actions')
  @Describe({
    summary: "The actions people took on an alert's subject around it",
    tag: 'alerts',
    status: 200,
    response: SubjectActionListSchema,
  })
  @Access.cluster('viewer')
  async actionsAround(
    @Cluster() cluster: RegisteredCluster,
    @Param('alertId', Id) alertId: string,
  ): Promise<SubjectActionList> {
    return { items: await this.actions.around(cluster.id, alertId) };
  }
}
