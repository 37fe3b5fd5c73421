import {
  CreateAlertRuleRequestSchema,
  CreateReceiverRequestSchema,
  CreateSilenceRequestSchema,
  DeliveryQuerySchema,
  UpdateReceiverRequestSchema,
  ownerRpcs,
  type Alert,
  type AlertRuleList,
  type AlertRuleTest,
  type CreateAlertRuleRequest,
  type CreateReceiverRequest,
  type CreateSilenceRequest,
  type DeliveryList,
  type DeliveryQuery,
  type ReceiverList,
  type SilenceList,
  type UpdateReceiverRequest,
} from '@artemis-studio/contracts';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { Access } from '../access/permission';
import type { Principal } from '../access/principal';
import { CurrentPrincipal } from '../access/request-context';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { ClusterRepository } from '../clusters/cluster.repository';
import { ClusterId, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { AlertReceiversRepository } from './alert-receivers.repository';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertsRepository } from './alerts.repository';

const Id = new ParseUUIDPipe({ errorHttpStatusCode: 400 });
/** Reading figures the owner holds in memory: a few milliseconds; Studio rules read the bus too. */
const RULE_TEST_TIMEOUT_MS = 10_000;

/**
 * One cluster's alerting (issue 29, ADR-0013): rules and receivers are the admin's (a receiver's
 * URL and secret are where alerts leave Studio); silences are the on-call operator's; everyone
 * with a role sees the alerts, their rules, silences and delivery log.
 */
@Controller('api/v1/clusters/:id')
export class AlertRulesController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly rules: AlertRulesRepository,
    private readonly receivers: AlertReceiversRepository,
    private readonly alerts: AlertsRepository,
    private readonly owner: OwnerClient,
  ) {}

  @Get('alert-rules')
  @Access.cluster('viewer')
  async listRules(@Param('id', ClusterId) id: string): Promise<AlertRuleList> {
    return { items: await this.rules.list(await this.clusters.known(id)) };
  }

  @Post('alert-rules')
  @Access.cluster('admin')
  @Audited('alert-rule.create')
  async createRule(
    @Param('id', ClusterId) id: string,
    @Body(new Valid(CreateAlertRuleRequestSchema, 'alert rule')) body: CreateAlertRuleRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: id });
    return this.rules.create(await this.clusters.known(id), body, note);
  }

  /**
   * Changes nothing: a viewer drafting a rule with an admin may read what it would match. Audited
   * as every POST is: who looked at what, with which rule.
   */
  @Post('alert-rules/test')
  @HttpCode(200)
  @Access.cluster('viewer')
  @Audited('alert-rule.test')
  async testRule(
    @Param('id', ClusterId) id: string,
    @Body(new Valid(CreateAlertRuleRequestSchema, 'alert rule')) body: CreateAlertRuleRequest,
    @AuditRecord() note: AuditNote,
  ): Promise<AlertRuleTest> {
    note.describe({ clusterId: id, target: body.name, detail: { kind: body.kind, subjects: body.subjects } });
    const clusterId = await this.clusters.known(id);
    return this.owner.ask(
      ownerRpcs.alertRuleTest,
      { clusterId, rule: body },
      'testing the rule',
      RULE_TEST_TIMEOUT_MS,
    );
  }

  @Put('alert-rules/:ruleId')
  @Access.cluster('admin')
  @Audited('alert-rule.update')
  async updateRule(
    @Param('id', ClusterId) id: string,
    @Param('ruleId', Id) ruleId: string,
    @Body(new Valid(CreateAlertRuleRequestSchema, 'alert rule')) body: CreateAlertRuleRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: id, target: ruleId });
    return this.rules.update(await this.clusters.known(id), ruleId, body, note);
  }

  /** Its open alerts resolve at the owner's next tick, and their receivers are told. */
  @Delete('alert-rules/:ruleId')
  @HttpCode(204)
  @Access.cluster('admin')
  @Audited('alert-rule.delete')
  async deleteRule(
    @Param('id', ClusterId) id: string,
    @Param('ruleId', Id) ruleId: string,
    @AuditRecord() note: AuditNote,
  ): Promise<void> {
    note.describe({ clusterId: id, target: ruleId });
    await this.rules.delete(await this.clusters.known(id), ruleId, note);
  }

  @Get('alerts/:alertId')
  @Access.cluster('viewer')
  async alert(@Param('id', ClusterId) id: string, @Param('alertId', Id) alertId: string): Promise<Alert> {
    return this.alerts.get(await this.clusters.known(id), alertId);
  }

  @Get('alert-deliveries')
  @Access.cluster('viewer')
  async deliveries(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(DeliveryQuerySchema, 'delivery query')) query: DeliveryQuery,
  ): Promise<DeliveryList> {
    return { items: await this.alerts.deliveries(await this.clusters.known(id), query.alert, query.limit) };
  }

  @Get('alert-silences')
  @Access.cluster('viewer')
  async silences(@Param('id', ClusterId) id: string): Promise<SilenceList> {
    return { items: await this.rules.silences(await this.clusters.known(id)) };
  }

  /** Mutes matching alerts until its end: still evaluated and listed, not notified. */
  @Post('alert-silences')
  @Access.cluster('operator')
  @Audited('alert-silence.create')
  async silence(
    @Param('id', ClusterId) id: string,
    @Body(new Valid(CreateSilenceRequestSchema, 'silence')) body: CreateSilenceRequest,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: id });
    return this.rules.silence(await this.clusters.known(id), body, principal.name, note);
  }

  @Post('alert-silences/:silenceId/end')
  @Access.cluster('operator')
  @Audited('alert-silence.end')
  async endSilence(
    @Param('id', ClusterId) id: string,
    @Param('silenceId', Id) silenceId: string,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: id, target: silenceId });
    return this.rules.endSilence(await this.clusters.known(id), silenceId, note);
  }

  @Get('alert-receivers')
  @Access.cluster('admin')
  async listReceivers(@Param('id', ClusterId) id: string): Promise<ReceiverList> {
    return { items: await this.receivers.list(await this.clusters.known(id)) };
  }

  @Post('alert-receivers')
  @Access.cluster('admin')
  @Audited('alert-receiver.create')
  async createReceiver(
    @Param('id', ClusterId) id: string,
    @Body(new Valid(CreateReceiverRequestSchema, 'alert receiver')) body: CreateReceiverRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: id });
    return this.receivers.create(await this.clusters.known(id), body, note);
  }

  @Put('alert-receivers/:receiverId')
  @Access.cluster('admin')
  @Audited('alert-receiver.update')
  async updateReceiver(
    @Param('id', ClusterId) id: string,
    @Param('receiverId', Id) receiverId: string,
    @Body(new Valid(UpdateReceiverRequestSchema, 'alert receiver')) body: UpdateReceiverRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: id, target: receiverId });
    return this.receivers.update(await this.clusters.known(id), receiverId, body, note);
  }

  @Delete('alert-receivers/:receiverId')
  @HttpCode(204)
  @Access.cluster('admin')
  @Audited('alert-receiver.delete')
  async deleteReceiver(
    @Param('id', ClusterId) id: string,
    @Param('receiverId', Id) receiverId: string,
    @AuditRecord() note: AuditNote,
  ): Promise<void> {
    note.describe({ clusterId: id, target: receiverId });
    await this.receivers.delete(await this.clusters.known(id), receiverId, note);
  }
}
