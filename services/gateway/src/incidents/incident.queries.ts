import {
  INCIDENT_ACTIONS_SHOWN,
  INCIDENT_ALERTS_SHOWN,
  INCIDENT_MARGIN_MS,
  type Alert,
} from '@artemis-studio/contracts';
import { ALERT_SELECT, alertOf, rowsOf, type AlertRow } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';
import type { ActionRow, RoleChangeRow } from './incident-timeline';

/**
 * The actions an incident shows: what people did to the cluster's queues, addresses and messages,
 * and the silences they set. Sign-ins, rule tests and grants are the administrators' audit, not
 * the incident's.
 */
const INCIDENT_ACTIONS = ['queue.%', 'address.%', 'message.%', 'message-job.%', 'alert-silence.%'];

/** What PostgreSQL holds of a cluster over an incident's range: its alerts, actions and failovers. */
@Injectable()
export class IncidentQueries {
  constructor(private readonly database: DatabaseService) {}

  /** An alert's incident range: half an hour either side of it, its end being now while it is open. */
  async rangeOfAlert(clusterId: string, alertId: string): Promise<{ from: Date; to: Date }> {
    const [row] = await rowsOf<{ started_at: Date; ended_at: Date | null }>(
      await this.database.forRequest(),
      `SELECT started_at, ended_at FROM alert WHERE cluster_id = $1 AND id = $2`,
      [clusterId, alertId],
    );
    if (!row) throw new DomainError('not-found', 'ALERT_NOT_FOUND', `no alert ${alertId} on this cluster`);
    const now = Date.now();
    return {
      from: new Date(row.started_at.getTime() - INCIDENT_MARGIN_MS),
      to: new Date(Math.min(now, (row.ended_at?.getTime() ?? now) + INCIDENT_MARGIN_MS)),
    };
  }

  /** The alerts open at any moment of [from, to], oldest first; one more than shown tells of a cut. */
  async alertsIn(clusterId: string, from: Date, to: Date): Promise<Alert[]> {
    const rows = await rowsOf<AlertRow>(
      await this.database.forRequest(),
      `${ALERT_SELECT}
        WHERE a.cluster_id = $1 AND a.started_at <= $3 AND COALESCE(a.ended_at, now()) >= $2
        ORDER BY a.started_at, a.id LIMIT ${INCIDENT_ALERTS_SHOWN + 1}`,
      [clusterId, from, to],
    );
    return rows.map(alertOf);
  }

  /** The successful actions on the cluster in [from, to], oldest first; one more than shown tells of a cut. */
  async actionsIn(clusterId: string, from: Date, to: Date): Promise<ActionRow[]> {
    return rowsOf<ActionRow>(
      await this.database.forRequest(),
      `SELECT at, action, actor_name AS actor, target, detail FROM audit_event
        WHERE cluster_id = $1 AND outcome = 'success' AND at BETWEEN $2 AND $3 AND action LIKE ANY ($4)
        ORDER BY at, seq LIMIT ${INCIDENT_ACTIONS_SHOWN + 1}`,
      [clusterId, from, to, INCIDENT_ACTIONS],
    );
  }

  /**
   * The nodes whose role last changed within [from, to]: Studio keeps each node's last change, not
   * every one, so an earlier failover in the range is known only by its events and alerts.
   */
  async roleChangesIn(clusterId: string, from: Date, to: Date): Promise<RoleChangeRow[]> {
    return rowsOf<RoleChangeRow>(
      await this.database.forRequest(),
      `SELECT n.name AS node, s.last_role AS role, s.role_changed_at AS at
         FROM node_state s JOIN cluster_node n ON n.id = s.node_id
        WHERE s.cluster_id = $1 AND s.role_changed_at BETWEEN $2 AND $3`,
      [clusterId, from, to],
    );
  }
}
