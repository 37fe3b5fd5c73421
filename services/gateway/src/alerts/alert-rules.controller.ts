import {
  CreateAlertRuleRequestSchema,
  ownerRpcs,
  type AlertRuleList,
  type AlertRuleTest,
  type CreateAlertRuleRequest,
  AlertRuleListSchema,
  AlertRuleSchema,
  AlertRuleTestSchema,
} from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Valid, Id } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { AlertRulesRepository } from './alert-rules.repository';
import { Describe } from '../openapi/operation';

/** Reading figures the owner holds in memory: a few milliseconds; Studio rules read the bus too. */
const RULE_TEST_TIMEOUT_MS = 10_000;

/**
 * A cluster's alert rules (ADR-0013): the admin's to write; everyone with a role reads them and
 * may test a draft against the owner's last figures.
 */
@Controller('api/v1/clusters/:id')
export class AlertRulesController {
  constructor(
    private readonly rules: AlertRulesRepository,
    private readonly owner: OwnerClient,
  ) {}

  @Get('alert-rules')
  @Describe({
    summary: "The cluster's alert rules",
    tag: 'alerts',
    status: 200,
    response: AlertRuleListSchema,
  })
  @Access.cluster('viewer')
  async list(@Cluster() cluster: RegisteredCluster): Promise<AlertRuleList> {
    return { items: await this.rules.list(cluster.id) };
  }

  @Post('alert-rules')
  @Describe({
    summary: 'Add an alert rule (evaluated by the owner from its next tick)',
    tag: 'alerts',
    body: CreateAlertRuleRequestSchema,
    status: 201,
    response: AlertRuleSchema,
  })
  @Access.cluster('admin')
  @Audited('alert-rule.create')
  async create(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(CreateAlertRuleRequestSchema, 'alert rule')) body: CreateAlertRuleRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: cluster.id });
    return this.rules.create(cluster.id, body, note);
  }

  /**
   * Changes nothing: a viewer drafting a rule with an admin may read what it would match. Audited
   * as every POST is: who looked at what, with which rule.
   */
  @Post('alert-rules/test')
  @Describe({
    summary:
      "Read a rule against the owner's last figures: which subjects it matches, which hold now (nothing stored)",
    tag: 'alerts',
    body: CreateAlertRuleRequestSchema,
    status: 200,
    response: AlertRuleTestSchema,
    owner: true,
  })
  @HttpCode(200)
  @Access.cluster('viewer')
  @Audited('alert-rule.test')
  async test(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(CreateAlertRuleRequestSchema, 'alert rule')) body: CreateAlertRuleRequest,
    @AuditRecord() note: AuditNote,
  ): Promise<AlertRuleTest> {
    note.describe({
      clusterId: cluster.id,
      target: body.name,
      detail: { kind: body.kind, subjects: body.subjects },
    });
    const clusterId = cluster.id;
    return this.owner.ask(
      ownerRpcs.alertRuleTest,
      { clusterId, rule: body },
      'testing the rule',
      RULE_TEST_TIMEOUT_MS,
    );
  }

  @Put('alert-rules/:ruleId')
  @Describe({
    summary: 'Change an alert rule (disabling it resolves its alerts)',
    tag: 'alerts',
    body: CreateAlertRuleRequestSchema,
    status: 200,
    response: AlertRuleSchema,
  })
  @Access.cluster('admin')
  @Audited('alert-rule.update')
  async update(
    @Cluster() cluster: RegisteredCluster,
    @Param('ruleId', Id) ruleId: string,
    @Body(new Valid(CreateAlertRuleRequestSchema, 'alert rule')) body: CreateAlertRuleRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: cluster.id, target: ruleId });
    return this.rules.update(cluster.id, ruleId, body, note);
  }

  /** Its open alerts resolve at the owner's next tick, and their receivers are told. */
  @Delete('alert-rules/:ruleId')
  @Describe({
    summary: 'Delete an alert rule; its open alerts resolve at the next tick and receivers are told',
    tag: 'alerts',
    status: 204,
  })
  @HttpCode(204)
  @Access.cluster('admin')
  @Audited('alert-rule.delete')
  async remove(
    @Cluster() cluster: RegisteredCluster,
    @Param('ruleId', Id) ruleId: string,
    @AuditRecord() note: AuditNote,
  ): Promise<void> {
    note.describe({ clusterId: cluster.id, target: ruleId });
    await this.rules.delete(cluster.id, ruleId, note);
  }
}
