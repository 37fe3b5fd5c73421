import { changeOf, firstRow, rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';

/** What became of an earlier request with the same idempotency key. */
export type EarlierRequest =
  | { state: 'new' }
  | { state: 'running' }
  /** Claimed long enough ago that it cannot still be running (its replica died): the outcome is unknown. */
  | { state: 'abandoned' }
  | { state: 'other-request' }
  | { state: 'answered'; status: number; response: unknown };

interface ActionRequestRecord {
  request: unknown;
  status: number | null;
  response: unknown;
  /** Whether it was claimed longer ago than any action may run. */
  stale: boolean;
}

/** Longer than the gateway ever waits for an action (90 s): a claim this old has no one running it. */
const ABANDONED_AFTER_SECONDS = 120;

/**
 * `action_request`: each mutating action request under its idempotency key (per cluster), so a
 * retried click, a double submit or a client's retry after a lost answer acts once. Any replica
 * answers for any key: the row is the lock.
 */
@Injectable()
export class ActionRequestRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Claims the key for this request, or says what the earlier request with it became. */
  async claim(clusterId: string, key: string, request: object): Promise<EarlierRequest> {
    const db = await this.database.forRequest();
    const claimed = await rowsOf(
      db,
      `INSERT INTO action_request (cluster_id, idempotency_key, request) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [clusterId, key, JSON.stringify(request)],
    );
    if (claimed.length) return { state: 'new' };
    const earlier = await firstRow<ActionRequestRecord>(
      db,
      `SELECT request, status, response, created_at < now() - $3 * interval '1 second' AS stale
         FROM action_request WHERE cluster_id = $1 AND idempotency_key = $2`,
      [clusterId, key, ABANDONED_AFTER_SECONDS],
    );
    // Gone between the two statements (forgotten after a failure): the caller may claim it again.
    if (!earlier) return this.claim(clusterId, key, request);
    if (canonical(earlier.request) !== canonical(request)) return { state: 'other-request' };
    if (earlier.status === null) return earlier.stale ? { state: 'abandoned' } : { state: 'running' };
    return { state: 'answered', status: earlier.status, response: earlier.response };
  }

  /** The answer to repeat for this key from now on. */
  async answer(clusterId: string, key: string, status: number, response: unknown): Promise<void> {
    await changeOf(
      await this.database.forRequest(),
      `UPDATE action_request SET status = $3, response = $4 WHERE cluster_id = $1 AND idempotency_key = $2`,
      [clusterId, key, status, JSON.stringify(response)],
    );
  }

  /** Nothing was done: the key is free again, so a retry acts. */
  async forget(clusterId: string, key: string): Promise<void> {
    await changeOf(
      await this.database.forRequest(),
      `DELETE FROM action_request WHERE cluster_id = $1 AND idempotency_key = $2`,
      [clusterId, key],
    );
  }

  /** Keys older than `hours` go: a retry comes within seconds, not days. */
  async reap(hours: number): Promise<number> {
    return (
      await changeOf(
        await this.database.forRequest(),
        `DELETE FROM action_request WHERE created_at < now() - $1 * interval '1 hour'`,
        [hours],
      )
    ).count;
  }
}

/** JSON with every object's keys in order: jsonb keeps its own key order, not the one sent. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
