import {
  kindsOfScope,
  type Alert,
  type AlertRuleKind,
  type AlertRuleScope,
  type AlertSeverity,
  type AlertState,
} from '@artemis-studio/contracts';
import {
  ALERT_SELECT,
  alertOf,
  changeOf,
  rowsOf,
  SILENCE_OF_ALERT,
  whileClusterExists,
  type AlertRow,
} from '@artemis-studio/db';
import type { DataSource, EntityManager } from 'typeorm';
import type { AlertStep, OpenAlert } from '../rules/alert-steps';
import { receiverTakes } from './receiver-choice';

/** Which tick evaluates a rule (contracts' `ruleScopeOf`). */
export type RuleScope = AlertRuleScope;

/** What a tier's evaluation records beside its steps: when its figures were known, and if not, why. */
export interface TierEvaluation {
  scope: RuleScope;
  /** The tier's interval: an evaluation older than twice this is stale. */
  intervalMs: number;
  rules: number;
  /** Why some of the tick's figures were unknown; null when all were known. */
  unknown: string | null;
}

/** A rule as the owner evaluates it; `retired` when disabled or deleted with alerts still open. */
export interface LoadedRule {
  id: string;
  kind: AlertRuleKind;
  subjects: string;
  threshold: number | null;
  forSeconds: number;
  severity: AlertSeverity;
  retired: string | null;
}

/** One committed transition, to publish once the transaction is over. */
export interface AlertTransitionRecord {
  state: AlertState;
  alert: Alert;
}

/**
 * The owner's side of `alert`: what a tick evaluates, and the write of its outcome with the
 * notifications it owes, in one transaction (the outbox: a takeover finds what was not yet sent).
 */
export class AlertEvaluationRepository {
  /** Each cluster's and scope's rules as last read, by a version of its rule rows. */
  private readonly rules = new Map<string, { version: string; rules: LoadedRule[] }>();

  constructor(private readonly db: Pick<DataSource, 'transaction' | 'query'>) {}

  /**
   * The scope's rules in force, those retired with open alerts, and the open alerts. The rules are
   * read again only when a rule of the cluster changed (parsing a thousand rows at every tick was
   * a large part of an evaluation's cost); the open alerts always.
   */
  async load(clusterId: string, scope: RuleScope): Promise<{ rules: LoadedRule[]; open: OpenAlert[] }> {
    const [{ version }] = await rowsOf<{ version: string }>(
      this.db,
      // A digest of the rows themselves, computed where they are: any change reads them again,
      // whoever made it and whether or not it moved updated_at.
      `SELECT count(*) || '|' || md5(COALESCE(string_agg(r::text, ',' ORDER BY r.id), '')) AS version
         FROM alert_rule r WHERE r.cluster_id = $1`,
      [clusterId],
    );
    const key = `${clusterId}|${scope}`;
    let cached = this.rules.get(key);
    if (cached?.version !== version) {
      cached = { version, rules: await this.readRules(clusterId, scope) };
      this.rules.set(key, cached);
    }
    if (cached.rules.length === 0) return { rules: [], open: [] };
    const open = await rowsOf<OpenAlert>(
      this.db,
      `SELECT a.id, a.rule_id AS "ruleId", a.subject, a.state, a.started_at AS "startedAt"
         FROM alert a JOIN alert_rule r ON r.id = a.rule_id
        WHERE a.cluster_id = $1 AND a.state <> 'resolved' AND r.kind = ANY ($2::text[])`,
      [clusterId, kindsOfScope(scope)],
    );
    return { rules: cached.rules, open };
  }

  private readRules(clusterId: string, scope: RuleScope): Promise<LoadedRule[]> {
    return rowsOf<LoadedRule>(
      this.db,
      `SELECT r.id, r.kind, r.subjects, r.threshold, r.for_seconds AS "forSeconds", r.severity,
              CASE WHEN r.deleted_at IS NOT NULL THEN 'the rule was deleted'
                   WHEN NOT r.enabled THEN 'the rule was disabled' END AS retired
         FROM alert_rule r
        WHERE r.cluster_id = $1 AND r.kind = ANY ($2::text[])
          AND ((r.enabled AND r.deleted_at IS NULL)
               OR EXISTS (SELECT 1 FROM alert a WHERE a.rule_id = r.id AND a.state <> 'resolved'))`,
      [clusterId, kindsOfScope(scope)],
    );
  }

  /**
   * Writes a tick's steps and queues what they owe: every transition to the NATS subject; a fire
   * (or a firing alert whose silence ended) to each enabled receiver its severity reaches, unless
   * silenced; a resolve to the receivers that were told it fired. Null when the cluster is gone.
   */
  async apply(
    clusterId: string,
    steps: readonly AlertStep[],
    now: Date,
    evaluation: TierEvaluation,
  ): Promise<AlertTransitionRecord[] | null> {
    return whileClusterExists(this.db, clusterId, async (tx) => {
      const transitions = new Map<string, AlertState>();
      await this.write(tx, clusterId, steps, now, transitions);
      const { rows: toNotify } = await changeOf<{ id: string }>(
        tx,
        `UPDATE alert a SET notified = true
          WHERE a.cluster_id = $1 AND a.state = 'firing' AND NOT a.notified AND ${SILENCE_OF_ALERT} IS NULL
          RETURNING a.id`,
        [clusterId],
      );
      const ids = [...new Set([...transitions.keys(), ...toNotify.map((r) => r.id)])];
      const alerts = ids.length
        ? (await rowsOf<AlertRow>(tx, `${ALERT_SELECT} WHERE a.id = ANY ($1::uuid[])`, [ids])).map(alertOf)
        : [];
      await this.enqueue(tx, clusterId, alerts, transitions, new Set(toNotify.map((r) => r.id)));
      await rowsOf(
        tx,
        // The stamp moves only when the tick's figures were known; `error` says why they were not.
        `INSERT INTO alert_evaluation (cluster_id, scope, evaluated_at, interval_ms, rules, error)
         VALUES ($1, $2, CASE WHEN $6::text IS NULL THEN $3::timestamptz END, $4, $5, $6)
         ON CONFLICT (cluster_id, scope) DO UPDATE SET
           evaluated_at = GREATEST(alert_evaluation.evaluated_at, EXCLUDED.evaluated_at),
           interval_ms = EXCLUDED.interval_ms, rules = EXCLUDED.rules, error = EXCLUDED.error`,
        [clusterId, evaluation.scope, now, evaluation.intervalMs, evaluation.rules, evaluation.unknown],
      );
      return alerts
        .filter((a) => transitions.has(a.id))
        .map((alert) => ({ state: transitions.get(alert.id)!, alert }));
    });
  }

  private async write(
    tx: EntityManager,
    clusterId: string,
    steps: readonly AlertStep[],
    now: Date,
    transitions: Map<string, AlertState>,
  ): Promise<void> {
    const of = <K extends AlertStep['kind']>(kind: K) =>
      steps.filter((s): s is Extract<AlertStep, { kind: K }> => s.kind === kind);
    const opened = of('open');
    if (opened.length) {
      // A replica taking over may evaluate the same tick: the open alert it finds wins.
      const rows = await rowsOf<{ id: string; state: AlertState }>(
        tx,
        `INSERT INTO alert (cluster_id, rule_id, subject, state, value, started_at, fired_at, last_evaluated_at, notified)
         SELECT $1, t.rule_id, t.subject, t.state, t.value, $2, CASE WHEN t.state = 'firing' THEN $2::timestamptz END, $2, false
           FROM unnest($3::uuid[], $4::text[], $5::text[], $6::float8[]) AS t(rule_id, subject, state, value)
         ON CONFLICT (rule_id, subject) WHERE state <> 'resolved' DO NOTHING
         RETURNING id, state`,
        [
          clusterId,
          now,
          opened.map((s) => s.ruleId),
          opened.map((s) => s.subject),
          opened.map((s) => s.state),
          opened.map((s) => s.value),
        ],
      );
      for (const r of rows) transitions.set(r.id, r.state);
    }
    const kept = of('keep');
    if (kept.length)
      await changeOf(
        tx,
        `UPDATE alert a SET value = COALESCE(t.value, a.value), last_evaluated_at = $1
           FROM unnest($2::uuid[], $3::float8[]) AS t(id, value)
          WHERE a.id = t.id AND a.state <> 'resolved'`,
        [now, kept.map((s) => s.alertId), kept.map((s) => s.value)],
      );
    const fired = of('fire');
    if (fired.length) {
      const { rows } = await changeOf<{ id: string }>(
        tx,
        `UPDATE alert a SET state = 'firing', fired_at = $1, value = t.value, last_evaluated_at = $1
           FROM unnest($2::uuid[], $3::float8[]) AS t(id, value)
          WHERE a.id = t.id AND a.state = 'pending' RETURNING a.id`,
        [now, fired.map((s) => s.alertId), fired.map((s) => s.value)],
      );
      for (const r of rows) transitions.set(r.id, 'firing');
    }
    const ended = [
      ...of('resolve'),
      ...of('drop').map((s) => ({
        alertId: s.alertId,
        value: null,
        reason: 'the condition cleared before it fired',
      })),
    ];
    if (ended.length) {
      const { rows } = await changeOf<{ id: string }>(
        tx,
        `UPDATE alert a SET state = 'resolved', ended_at = $1, end_reason = t.reason,
                value = COALESCE(t.value, a.value), last_evaluated_at = $1
           FROM unnest($2::uuid[], $3::float8[], $4::text[]) AS t(id, value, reason)
          WHERE a.id = t.id AND a.state <> 'resolved' RETURNING a.id`,
        [now, ended.map((s) => s.alertId), ended.map((s) => s.value), ended.map((s) => s.reason)],
      );
      for (const r of rows) transitions.set(r.id, 'resolved');
    }
  }

  private async enqueue(
    tx: EntityManager,
    clusterId: string,
    alerts: readonly Alert[],
    transitions: ReadonlyMap<string, AlertState>,
    firingToNotify: ReadonlySet<string>,
  ): Promise<void> {
    if (alerts.length === 0) return;
    const receivers = await rowsOf<{
      id: string;
      min_severity: AlertSeverity;
      matchers: Record<string, string>;
    }>(tx, `SELECT id, min_severity, matchers FROM alert_receiver WHERE cluster_id = $1 AND enabled`, [
      clusterId,
    ]);
    const resolvedIds = alerts.filter((a) => transitions.get(a.id) === 'resolved').map((a) => a.id);
    const toldOf = new Map<string, string[]>();
    if (resolvedIds.length)
      for (const r of await rowsOf<{ alert_id: string; receiver_id: string }>(
        tx,
        `SELECT DISTINCT alert_id, receiver_id FROM alert_delivery
          WHERE alert_id = ANY ($1::uuid[]) AND transition = 'firing' AND receiver_id IS NOT NULL`,
        [resolvedIds],
      ))
        toldOf.set(r.alert_id, [...(toldOf.get(r.alert_id) ?? []), r.receiver_id]);

    const rows: { alertId: string; receiverId: string | null; transition: AlertState; payload: string }[] =
      [];
    for (const alert of alerts) {
      const state = transitions.get(alert.id);
      const payload = JSON.stringify(alert);
      if (state) rows.push({ alertId: alert.id, receiverId: null, transition: state, payload });
      const targets =
        state === 'resolved'
          ? (toldOf.get(alert.id) ?? [])
          : firingToNotify.has(alert.id)
            ? receivers
                .filter((r) => receiverTakes({ minSeverity: r.min_severity, matchers: r.matchers }, alert))
                .map((r) => r.id)
            : [];
      for (const receiverId of targets)
        rows.push({
          alertId: alert.id,
          receiverId,
          transition: state === 'resolved' ? 'resolved' : 'firing',
          payload,
        });
    }
    if (rows.length === 0) return;
    await rowsOf(
      tx,
      `INSERT INTO alert_delivery (cluster_id, alert_id, receiver_id, transition, payload)
       SELECT $1, t.alert_id, t.receiver_id, t.transition, t.payload::jsonb
         FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[]) AS t(alert_id, receiver_id, transition, payload)`,
      [
        clusterId,
        rows.map((r) => r.alertId),
        rows.map((r) => r.receiverId),
        rows.map((r) => r.transition),
        rows.map((r) => r.payload),
      ],
    );
  }
}
