import {
  ALERT_SEVERITIES,
  kindsOfScope,
  type Alert,
  type AlertListQuery,
  type AlertRuleScope,
  type AlertSummary,
  type Delivery,
} from '@artemis-studio/contracts';
import {
  ALERT_SELECT,
  alertOf,
  Filters,
  isoOrNull,
  rowsOf,
  SILENCE_OF_ALERT,
  type AlertRow,
} from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';

export interface DeliveryRow {
  id: string;
  alert_id: string | null;
  receiver_id: string | null;
  receiver_name: string | null;
  transition: Delivery['transition'];
  status: Delivery['status'];
  attempts: number;
  created_at: Date;
  next_attempt_at: Date;
  delivered_at: Date | null;
  last_error: string | null;
}

export const deliveryOf = (r: DeliveryRow): Delivery => ({
  id: r.id,
  alertId: r.alert_id,
  receiverId: r.receiver_id,
  receiverName:
    r.receiver_id === null ? 'NATS (studio.v1.alerts)' : (r.receiver_name ?? 'a deleted receiver'),
  transition: r.transition,
  status: r.status,
  attempts: r.attempts,
  createdAt: r.created_at.toISOString(),
  nextAttemptAt: r.status === 'pending' ? r.next_attempt_at.toISOString() : null,
  deliveredAt: isoOrNull(r.delivered_at),
  lastError: r.last_error,
});

/** Alerts as the console reads them: across the clusters a principal may see, or one cluster's. */
@Injectable()
export class AlertsRepository {
  constructor(private readonly database: DatabaseService) {}

  async list(clusterIds: readonly string[], query: AlertListQuery): Promise<Alert[]> {
    const filters = new Filters().add('a.cluster_id = ANY (?::uuid[])', clusterIds);
    if (query.state === 'active') filters.add(`a.state <> ?`, 'resolved');
    else filters.add('a.state = ?', query.state);
    filters.add('r.severity = ?', query.severity).add('a.rule_id = ?', query.rule);
    filters.add(
      `(${SILENCE_OF_ALERT} IS NOT NULL) = ?::boolean`,
      query.silenced === undefined ? undefined : query.silenced === 'true',
    );
    const rows = await rowsOf<AlertRow>(
      await this.database.forRequest(),
      `${ALERT_SELECT} ${filters.where}
        ORDER BY CASE a.state WHEN 'firing' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END,
                 COALESCE(a.ended_at, a.fired_at, a.started_at) DESC
        LIMIT ${filters.param(query.limit)}`,
      filters.params,
    );
    return rows.map(alertOf);
  }

  async get(clusterId: string, id: string): Promise<Alert> {
    const [row] = await rowsOf<AlertRow>(
      await this.database.forRequest(),
      `${ALERT_SELECT} WHERE a.cluster_id = $1 AND a.id = $2`,
      [clusterId, id],
    );
    if (!row) throw new DomainError('not-found', 'ALERT_NOT_FOUND', `no alert ${id} on this cluster`);
    return alertOf(row);
  }

  /** Newest first: every try to tell someone of an alert, or of any of the cluster's alerts. */
  async deliveries(clusterId: string, alertId: string | undefined, limit: number): Promise<Delivery[]> {
    const filters = new Filters().add('d.cluster_id = ?', clusterId).add('d.alert_id = ?', alertId);
    const rows = await rowsOf<DeliveryRow>(
      await this.database.forRequest(),
      `SELECT d.id, d.alert_id, d.receiver_id, r.name AS receiver_name, d.transition, d.status, d.attempts,
              d.created_at, d.next_attempt_at, d.delivered_at, d.last_error
         FROM alert_delivery d LEFT JOIN alert_receiver r ON r.id = d.receiver_id
         ${filters.where} ORDER BY d.id DESC LIMIT ${filters.param(limit)}`,
      filters.params,
    );
    return rows.map(deliveryOf);
  }

  /**
   * The header's count over the given clusters, and which of them cannot be trusted: a cluster with
   * rules in force whose rules were not evaluated within twice the interval, or never.
   */
  async summary(clusters: readonly { id: string; name: string }[]): Promise<AlertSummary> {
    const ids = clusters.map((c) => c.id);
    const db = await this.database.forRequest();
    const counts = await rowsOf<{ state: string; severity: string; silenced: boolean; n: number }>(
      db,
      `SELECT a.state, r.severity, ${SILENCE_OF_ALERT} IS NOT NULL AS silenced, count(*)::int AS n
         FROM alert a JOIN alert_rule r ON r.id = a.rule_id
        WHERE a.cluster_id = ANY ($1::uuid[]) AND a.state <> 'resolved'
        GROUP BY 1, 2, 3`,
      [ids],
    );
    // Per tier with rules in force (contracts' `ruleScopeOf`), each with a stamp of its own: a
    // stalled tier B is not hidden by tier A's.
    const evaluations = await rowsOf<{
      cluster_id: string;
      scope: AlertRuleScope;
      evaluated_at: Date | null;
      stale: boolean | null;
      error: string | null;
    }>(
      db,
      `SELECT r.cluster_id, r.scope, e.evaluated_at, e.error,
              e.evaluated_at < now() - 2 * e.interval_ms * interval '1 millisecond' AS stale
         FROM (SELECT DISTINCT cluster_id,
                      CASE WHEN kind = ANY ($2::text[]) THEN 'tier-b'
                           WHEN kind = ANY ($3::text[]) THEN 'fleet' ELSE 'tier-a' END AS scope
                 FROM alert_rule
                WHERE cluster_id = ANY ($1::uuid[]) AND enabled AND deleted_at IS NULL) r
         LEFT JOIN alert_evaluation e ON e.cluster_id = r.cluster_id AND e.scope = r.scope
        ORDER BY r.cluster_id, r.scope`,
      [ids, kindsOfScope('tier-b'), kindsOfScope('fleet')],
    );
    const names = new Map(clusters.map((c) => [c.id, c.name]));
    const unevaluated = new Map<string, AlertSummary['unevaluated'][number]>();
    for (const e of evaluations) {
      const reason = unevaluatedReason(e);
      if (reason === null || unevaluated.has(e.cluster_id)) continue;
      unevaluated.set(e.cluster_id, {
        clusterId: e.cluster_id,
        clusterName: names.get(e.cluster_id) ?? e.cluster_id,
        evaluatedAt: isoOrNull(e.evaluated_at),
        reason,
      });
    }
    const summary: AlertSummary = {
      firing: 0,
      pending: 0,
      silenced: 0,
      bySeverity: Object.fromEntries(ALERT_SEVERITIES.map((s) => [s, 0])) as AlertSummary['bySeverity'],
      unevaluated: [...unevaluated.values()],
    };
    for (const c of counts) {
      if (c.silenced) summary.silenced += c.n;
      else if (c.state === 'firing') {
        summary.firing += c.n;
        summary.bySeverity[c.severity as keyof AlertSummary['bySeverity']] += c.n;
      } else summary.pending += c.n;
    }
    return summary;
  }
}

const RULES_OF_SCOPE: Record<AlertRuleScope, string> = {
  'tier-a': 'node rules',
  'tier-b': 'queue and address rules',
  // Evaluated by every scraper replica: stale only when none runs.
  fleet: 'scraper rules',
};

/** Why a tier's rules cannot be trusted now, or null when they can. */
function unevaluatedReason(e: {
  scope: AlertRuleScope;
  evaluated_at: Date | null;
  stale: boolean | null;
  error: string | null;
}): string | null {
  const rules = RULES_OF_SCOPE[e.scope];
  if (e.error !== null) return `its ${rules} are unknown: at the last tick ${e.error}`;
  if (e.evaluated_at === null) return `its ${rules} have not been evaluated yet`;
  if (e.stale)
    return `its ${rules} were not evaluated lately: ${e.scope === 'fleet' ? 'no scraper replica runs' : 'its poller is behind or has no owner'}`;
  return null;
}
