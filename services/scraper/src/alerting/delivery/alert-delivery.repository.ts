import type { Alert, AlertReceiverKind, DeliveryTransition } from '@artemis-studio/contracts';
import { ALERT_SELECT, alertOf, changeOf, rowsOf, type AlertRow } from '@artemis-studio/db';
import type { DataSource } from 'typeorm';

/** One owed notification, claimed for a try. */
export interface ClaimedDelivery {
  id: string;
  receiver_id: string | null;
  /** `test`: a receiver's test notification (issue 61), of no alert. */
  transition: DeliveryTransition;
  payload: Alert;
  attempts: number;
  created_at: Date;
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

/**
 * The outbox of one service's alert notifications (`alert_delivery`, written with the transitions
 * by AlertEvaluationRepository): claimed in order, settled after each try.
 */
export class AlertDeliveryRepository {
  constructor(private readonly db: Pick<DataSource, 'query'>) {}

  /**
   * The deliveries of a cluster due now, each the oldest owed to its alert and receiver (a resolve
   * never overtakes its fire), left alone by another claim for `holdMs` (a replica taking over).
   */
  async claim(clusterId: string, holdMs: number): Promise<ClaimedDelivery[]> {
    const { rows } = await changeOf<ClaimedDelivery>(
      this.db,
      `UPDATE alert_delivery d SET next_attempt_at = now() + $2::int * interval '1 millisecond', attempts = d.attempts + 1
        WHERE d.id IN (
          SELECT x.id FROM alert_delivery x
           WHERE x.cluster_id = $1 AND x.status = 'pending' AND x.next_attempt_at <= now()
             AND NOT EXISTS (SELECT 1 FROM alert_delivery y
                              WHERE y.alert_id = x.alert_id AND y.receiver_id IS NOT DISTINCT FROM x.receiver_id
                                AND y.status = 'pending' AND y.id < x.id)
           ORDER BY x.id LIMIT 50 FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.receiver_id, d.transition, d.payload, d.attempts, d.created_at`,
      [clusterId, holdMs],
    );
    return rows;
  }

  /** Records a try: delivered or failed for good, or to be tried again after `retryInMs`. */
  async settle(id: string, outcome: DeliveryOutcome, error: string | null, retryInMs: number): Promise<void> {
    await changeOf(
      this.db,
      outcome === 'retry'
        ? `UPDATE alert_delivery SET last_error = $2, next_attempt_at = now() + $3::int * interval '1 millisecond' WHERE id = $1`
        : `UPDATE alert_delivery SET last_error = $2, status = $3, delivered_at = CASE WHEN $3 = 'delivered' THEN now() END
            WHERE id = $1`,
      [id, error, outcome === 'retry' ? retryInMs : outcome],
    );
  }

  /**
   * Per enabled receiver of these kinds, the cluster's alerts firing now that it was told of, and
   * not silenced: what a receiver that forgets (Alertmanager) is told again.
   */
  async firingTold(clusterId: string, kinds: readonly AlertReceiverKind[]): Promise<Map<string, Alert[]>> {
    const targets = await rowsOf<{ receiver_id: string; alert_ids: string[] }>(
      this.db,
      `SELECT d.receiver_id, array_agg(DISTINCT d.alert_id) AS alert_ids
         FROM alert_delivery d JOIN alert a ON a.id = d.alert_id JOIN alert_receiver r ON r.id = d.receiver_id
        WHERE d.cluster_id = $1 AND d.transition = 'firing' AND d.status = 'delivered'
          AND a.state = 'firing' AND r.kind = ANY ($2::text[]) AND r.enabled
        GROUP BY d.receiver_id`,
      [clusterId, kinds],
    );
    const told = new Map<string, Alert[]>();
    for (const target of targets) {
      const alerts = (
        await rowsOf<AlertRow>(this.db, `${ALERT_SELECT} WHERE a.id = ANY ($1::uuid[])`, [target.alert_ids])
      )
        .map(alertOf)
        .filter((a) => a.silencedBy === null);
      if (alerts.length > 0) told.set(target.receiver_id, alerts);
    }
    return told;
  }
}
