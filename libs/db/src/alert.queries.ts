import {
  describeAlert,
  type Alert,
  type AlertRule,
  type AlertRuleKind,
  type AlertSeverity,
  type AlertState,
} from '@artemis-studio/contracts';
import { isoOrNull } from './sql/typed-rows';

/** A glob (`*` any run) as a LIKE pattern, in SQL, so a silence matches here as it does in code. */
const likeOf = (column: string) =>
  `replace(replace(replace(replace(${column}, '\\', '\\\\'), '%', '\\%'), '_', '\\_'), '*', '%')`;

/** The silence covering an open alert now, if any: the same test for the owner and the gateway. */
export const SILENCE_OF_ALERT = `(
  SELECT s.id FROM alert_silence s
   WHERE s.cluster_id = a.cluster_id AND (s.rule_id IS NULL OR s.rule_id = a.rule_id)
     AND s.starts_at <= now() AND s.ends_at > now() AND s.ended_early_at IS NULL
     AND a.state <> 'resolved' AND a.subject LIKE ${likeOf('s.subjects')}
   ORDER BY s.ends_at DESC LIMIT 1)`;

/** An alert with what its rule and cluster say about it, as `alertOf` reads it. */
export const ALERT_SELECT = `
  SELECT a.id, a.cluster_id, c.name AS cluster_name, a.rule_id, r.name AS rule_name, r.kind, r.severity,
         r.threshold, r.labels, r.description AS template, a.subject, a.state, a.value, a.started_at, a.fired_at,
         a.ended_at, a.end_reason, a.last_evaluated_at, ${SILENCE_OF_ALERT} AS silenced_by
    FROM alert a JOIN alert_rule r ON r.id = a.rule_id JOIN cluster c ON c.id = a.cluster_id`;

export interface AlertRow {
  id: string;
  cluster_id: string;
  cluster_name: string;
  rule_id: string;
  rule_name: string;
  kind: AlertRuleKind;
  severity: AlertSeverity;
  threshold: number | null;
  labels: Record<string, string>;
  template: string;
  subject: string;
  state: AlertState;
  value: number | null;
  started_at: Date;
  fired_at: Date | null;
  ended_at: Date | null;
  end_reason: string | null;
  last_evaluated_at: Date;
  silenced_by: string | null;
}

export const alertOf = (r: AlertRow): Alert => ({
  id: r.id,
  clusterId: r.cluster_id,
  clusterName: r.cluster_name,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  kind: r.kind,
  severity: r.severity,
  labels: r.labels,
  subject: r.subject,
  state: r.state,
  value: r.value,
  threshold: r.threshold,
  description: describeAlert({
    kind: r.kind,
    template: r.template,
    subject: r.subject,
    value: r.value,
    threshold: r.threshold,
    cluster: r.cluster_name,
    rule: r.rule_name,
  }),
  startedAt: r.started_at.toISOString(),
  firedAt: isoOrNull(r.fired_at),
  endedAt: isoOrNull(r.ended_at),
  endReason: r.end_reason,
  lastEvaluatedAt: r.last_evaluated_at.toISOString(),
  silencedBy: r.silenced_by,
});

export interface AlertRuleRow {
  id: string;
  cluster_id: string;
  name: string;
  kind: AlertRuleKind;
  subjects: string;
  threshold: number | null;
  for_seconds: number;
  severity: AlertSeverity;
  labels: Record<string, string>;
  description: string;
  enabled: boolean;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const alertRuleOf = (r: AlertRuleRow): AlertRule => ({
  id: r.id,
  clusterId: r.cluster_id,
  name: r.name,
  kind: r.kind,
  subjects: r.subjects,
  threshold: r.threshold,
  forSeconds: r.for_seconds,
  severity: r.severity,
  labels: r.labels,
  description: r.description,
  enabled: r.enabled,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});
