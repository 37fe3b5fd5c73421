import { ALERT_ACTIONS_SHOWN, type SubjectAction } from '@artemis-studio/contracts';
import { rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';

/** How far either side of an alert its subject's actions are looked for: what led to it, what ended it. */
const AROUND = `interval '1 hour'`;

/**
 * The actions people took on an alert's subject around it, from the audit trail (issue 61, item 1):
 * a purge, a pause, a redrive, on the chart beside the figure and the broker's events.
 */
@Injectable()
export class AlertActionQueries {
  constructor(private readonly database: DatabaseService) {}

  async around(clusterId: string, alertId: string): Promise<SubjectAction[]> {
    const sql = await this.database.forRequest();
    const [alert] = await rowsOf<{ subject: string; since: Date; until: Date }>(
      sql,
      `SELECT subject, started_at - ${AROUND} AS since, COALESCE(ended_at, now()) + ${AROUND} AS until
         FROM alert WHERE cluster_id = $1 AND id = $2`,
      [clusterId, alertId],
    );
    if (!alert) throw new DomainError('not-found', 'ALERT_NOT_FOUND', `no alert ${alertId} on this cluster`);
    const rows = await rowsOf<{
      at: Date;
      action: string;
      actor: string;
      detail: Record<string, unknown> | null;
    }>(
      sql,
      `SELECT at, action, actor_name AS actor, detail FROM audit_event
        WHERE cluster_id = $1 AND target = $2 AND outcome = 'success' AND at BETWEEN $3 AND $4
        ORDER BY at LIMIT ${ALERT_ACTIONS_SHOWN}`,
      [clusterId, alert.subject, alert.since, alert.until],
    );
    return rows.map((r) => ({
      at: r.at.toISOString(),
      action: r.action,
      actor: r.actor,
      counts: countsOf(r.detail ?? {}),
    }));
  }
}

/** The numbers an action reported: a filter or a body is not shown beside a chart. */
function countsOf(detail: Record<string, unknown>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(detail).filter(
      (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
    ),
  );
}
