import {
  AlertListQuerySchema,
  type AlertList,
  type AlertListQuery,
  type AlertSummary,
  AlertListSchema,
  AlertSummarySchema,
} from '@artemis-studio/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { roleOfPrincipal, type Principal } from '../access/principal';
import { CurrentPrincipal } from '../access/request-context';
import { ClusterRepository } from '../clusters/cluster.repository';
import { Valid } from '../http/validation.pipe';
import { AlertsRepository } from './alerts.repository';
import { Describe } from '../openapi/operation';

/** Alerts across the clusters the principal holds a role on: the Alerts page and the header's count. */
@Controller('api/v1/alerts')
export class AlertsController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly alerts: AlertsRepository,
  ) {}

  @Get()
  @Describe({
    summary: 'Alerts across the clusters you hold a role on: active (firing and pending) by default',
    tag: 'alerts',
    query: AlertListQuerySchema,
    status: 200,
    response: AlertListSchema,
  })
  @Access.signedIn()
  async list(
    @Query(new Valid(AlertListQuerySchema, 'alert query')) query: AlertListQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AlertList> {
    const visible = (await this.visible(principal)).filter((c) => !query.cluster || c.id === query.cluster);
    return {
      items: await this.alerts.list(
        visible.map((c) => c.id),
        query,
      ),
    };
  }

  @Get('summary')
  @Describe({
    summary: "The header's count, and the clusters whose rules were not evaluated lately (never green then)",
    tag: 'alerts',
    status: 200,
    response: AlertSummarySchema,
  })
  @Access.signedIn()
  async summary(@CurrentPrincipal() principal: Principal): Promise<AlertSummary> {
    return this.alerts.summary(await this.visible(principal));
  }

  private async visible(principal: Principal) {
    return (await this.clusters.names()).filter((c) => roleOfPrincipal(principal, c.name) !== null);
  }
}
