import type { Alert, Delivery } from '@artemis-studio/contracts';
import { firstRow } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../domain-error';
import { deliveryOf, type DeliveryRow } from './alerts.repository';

/** The rule id a test notification names: no rule sent it. */
const NO_RULE = '00000000-0000-0000-0000-000000000000';

/**
 * What a receiver's test notification tells (issue 61): an alert of no rule, `info`, labelled
 * `test=true`, saying who asked, so whoever reads it knows nothing is wrong.
 */
function testAlert(cluster: { id: string; name: string }, by: string, at: Date): Alert {
  const now = at.toISOString();
  return {
    id: randomUUID(),
    clusterId: cluster.id,
    clusterName: cluster.name,
    ruleId: NO_RULE,
    ruleName: 'Studio test notification',
    kind: 'node-unreachable',
    severity: 'info',
    labels: { test: 'true' },
    subject: 'test',
    state: 'firing',
    value: null,
    threshold: null,
    description: `A test notification from Artemis Studio, asked for by ${by}: nothing is wrong.`,
    startedAt: now,
    firedAt: now,
    endedAt: null,
    endReason: null,
    lastEvaluatedAt: now,
    silencedBy: null,
  };
}

/**
 * A receiver's test notification, sent through the real path: owed in `alert_delivery` like an
 * alert's, sent by the cluster's owner through the receiver's channel within a second or so, tried
 * once (a failure says why in the delivery log, where the console shows it).
 */
@Injectable()
export class ReceiverTestsRepository {
  constructor(private readonly database: DatabaseService) {}

  async send(clusterId: string, receiverId: string, by: string): Promise<Delivery> {
    const db = await this.database.forRequest();
    const receiver = await firstRow<{ name: string; enabled: boolean; cluster_name: string }>(
      db,
      `SELECT r.name, r.enabled, c.name AS cluster_name
         FROM alert_receiver r JOIN cluster c ON c.id = r.cluster_id
        WHERE r.cluster_id = $1 AND r.id = $2`,
      [clusterId, receiverId],
    );
    if (!receiver)
      throw new DomainError('not-found', 'RECEIVER_NOT_FOUND', `no receiver ${receiverId} on this cluster`);
    if (!receiver.enabled)
      throw new DomainError(
        'conflict',
        'RECEIVER_DISABLED',
        `receiver ${receiver.name} is turned off: turn it on to test it`,
      );
    const alert = testAlert({ id: clusterId, name: receiver.cluster_name }, by, new Date());
    const row = await firstRow<DeliveryRow>(
      db,
      `WITH owed AS (
         INSERT INTO alert_delivery (cluster_id, alert_id, receiver_id, transition, payload)
         VALUES ($1, NULL, $2, 'test', $3) RETURNING *)
       SELECT o.id, o.alert_id, o.receiver_id, $4::text AS receiver_name, o.transition, o.status, o.attempts,
              o.created_at, o.next_attempt_at, o.delivered_at, o.last_error
         FROM owed o`,
      [clusterId, receiverId, JSON.stringify(alert), receiver.name],
    );
    return deliveryOf(row!);
  }
}
