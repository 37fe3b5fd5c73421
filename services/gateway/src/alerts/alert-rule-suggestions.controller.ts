import {
  CreateAlertRuleRequestSchema,
  SUGGESTED_ALERT_RULES,
  SaveSuggestedAlertRulesSchema,
  SavedSuggestedAlertRulesSchema,
  SuggestedAlertRulesSchema,
  type SaveSuggestedAlertRules,
  type SavedSuggestedAlertRules,
  type SuggestedAlertRules,
} from '@artemis-studio/contracts';
import { Body, Controller, Get, Post } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Valid } from '../http/validation.pipe';
import { Describe } from '../openapi/operation';
import { AlertRulesRepository } from './alert-rules.repository';

/** Each suggestion as a rule is saved: its defaults (enabled, no labels) filled in. */
const SUGGESTED = SUGGESTED_ALERT_RULES.map((r) => CreateAlertRuleRequestSchema.parse(r));

/**
 * The rules Studio suggests for any cluster (issue 61), each off until chosen: offered when a
 * cluster is registered and on its Alerting screen, and here for scripts that set clusters up.
 */
@Controller('api/v1/clusters/:id')
export class AlertRuleSuggestionsController {
  constructor(private readonly rules: AlertRulesRepository) {}

  @Get('alert-rules/suggested')
  @Describe({
    summary: 'The suggested alert rules, each as it would be saved, and whether the cluster has it',
    tag: 'alerts',
    status: 200,
    response: SuggestedAlertRulesSchema,
  })
  @Access.cluster('viewer')
  async list(@Cluster() cluster: RegisteredCluster): Promise<SuggestedAlertRules> {
    const saved = new Set((await this.rules.list(cluster.id)).map((r) => r.name));
    return { items: SUGGESTED.map((rule) => ({ rule, saved: saved.has(rule.name) })) };
  }

  @Post('alert-rules/suggested')
  @Describe({
    summary: 'Save the suggested alert rules of these names; one the cluster has already is left as it is',
    tag: 'alerts',
    body: SaveSuggestedAlertRulesSchema,
    status: 201,
    response: SavedSuggestedAlertRulesSchema,
  })
  @Access.cluster('admin')
  @Audited('alert-rule.create-suggested')
  async save(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(SaveSuggestedAlertRulesSchema, 'suggested rules')) body: SaveSuggestedAlertRules,
    @AuditRecord() note: AuditNote,
  ): Promise<SavedSuggestedAlertRules> {
    note.describe({ clusterId: cluster.id });
    const chosen = SUGGESTED.filter((rule) => body.names.includes(rule.name));
    return this.rules.createMissing(cluster.id, chosen, note);
  }
}
