import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import { changeOf, reapOlderThan, rowsOf, whileClusterExists } from '@artemis-studio/db';
import type { QueueObservation } from './queue-observation';

export interface QueueSyncResult {
  /** Queues inserted or whose figures differ from the previous tick's. */
  changed: number;
  /** Queues that existed at the previous tick and are gone now. */
  removed: number;
}

const RATES = ['added', 'acknowledged', 'expired', 'killed'] as const;
const COUNTER = {
  added: 'messages_added',
  acknowledged: 'messages_acknowledged',
  expired: 'messages_expired',
  killed: 'messages_killed',
};
/** A counter's increase per second since the stored observation; unknown after a reset (the broker counts afresh). */
const rateOf = (r: (typeof RATES)[number]) =>
  `CASE WHEN EXCLUDED.observed_at > s.observed_at AND EXCLUDED.${COUNTER[r]} >= s.${COUNTER[r]}
        THEN (EXCLUDED.${COUNTER[r]} - s.${COUNTER[r]}) / extract(epoch FROM EXCLUDED.observed_at - s.observed_at)::float8
   END`;

/**
 * Writes one node's tier-B tick in one statement: upsert every snapshot, delete the queues that
 * disappeared, append a metric sample per queue, and let PostgreSQL say what really changed
 * (changed_at moves only when a figure differs), so the diff is against the persisted state. Rates
 * come from the same comparison: each counter's increase since the stored observation. Null, writing
 * nothing, when the cluster has been deleted meanwhile.
 */
@Injectable()
export class QueueSnapshotRepository {
  constructor(@Inject(DatabaseService) private readonly database: Pick<DatabaseService, 'whenReady'>) {}

  async sync(
    clusterId: string,
    nodeId: string,
    queues: QueueObservation[],
    observedAt: Date,
    /** Queues listed but not read this tick: their snapshot stays as it was. */
    unread: readonly string[] = [],
  ): Promise<QueueSyncResult | null> {
    const db = await this.database.whenReady();
    const column = <K extends keyof QueueObservation>(key: K) => queues.map((q) => q[key]);
    const rows = await whileClusterExists(db, clusterId, (tx) =>
      rowsOf<QueueSyncResult>(
        tx,
        `WITH incoming AS (
         SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::int[], $9::bigint[],
                              $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bool[], $15::bool[], $16::bool[],
                              $18::timestamptz[])
           AS t(name, address, routing_type, message_count, consumer_count, delivering_count, messages_added,
                messages_acknowledged, messages_expired, messages_killed, paused, durable, temporary, first_message_at)
       ),
       upserted AS (
         INSERT INTO queue_snapshot AS s (node_id, cluster_id, observed_at, changed_at, name, address, routing_type,
           message_count, consumer_count, delivering_count, messages_added, messages_acknowledged, messages_expired,
           messages_killed, paused, durable, temporary, first_message_at)
         SELECT $2, $1, $3, $3, i.* FROM incoming i
         ON CONFLICT (node_id, name) DO UPDATE SET
           changed_at = CASE WHEN (s.address, s.routing_type, s.message_count, s.consumer_count, s.delivering_count,
                                   s.messages_added, s.messages_acknowledged, s.messages_expired, s.messages_killed,
                                   s.paused, s.durable, s.temporary, s.first_message_at)
                               IS DISTINCT FROM
                                  (EXCLUDED.address, EXCLUDED.routing_type, EXCLUDED.message_count, EXCLUDED.consumer_count,
                                   EXCLUDED.delivering_count, EXCLUDED.messages_added, EXCLUDED.messages_acknowledged,
                                   EXCLUDED.messages_expired, EXCLUDED.messages_killed, EXCLUDED.paused, EXCLUDED.durable,
                                   EXCLUDED.temporary, EXCLUDED.first_message_at)
                             THEN EXCLUDED.observed_at ELSE s.changed_at END,
           observed_at = EXCLUDED.observed_at, address = EXCLUDED.address, routing_type = EXCLUDED.routing_type,
           message_count = EXCLUDED.message_count, consumer_count = EXCLUDED.consumer_count,
           delivering_count = EXCLUDED.delivering_count, messages_added = EXCLUDED.messages_added,
           messages_acknowledged = EXCLUDED.messages_acknowledged, messages_expired = EXCLUDED.messages_expired,
           messages_killed = EXCLUDED.messages_killed, paused = EXCLUDED.paused, durable = EXCLUDED.durable,
           temporary = EXCLUDED.temporary, first_message_at = EXCLUDED.first_message_at,
           ${RATES.map((r) => `${r}_per_second = ${rateOf(r)}`).join(', ')}
         RETURNING s.changed_at = s.observed_at AS changed
       ),
       removed AS (
         DELETE FROM queue_snapshot WHERE node_id = $2 AND NOT (name = ANY ($4::text[]) OR name = ANY ($17::text[]))
         RETURNING 1
       ),
       sampled AS (
         INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                    messages_acknowledged, consumer_count, delivering_count, first_message_at)
         SELECT $3, $1, $2, name, message_count, messages_added, messages_acknowledged, consumer_count,
                delivering_count, first_message_at FROM incoming
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM upserted WHERE changed)::int AS changed,
              (SELECT count(*) FROM removed)::int AS removed,
              (SELECT count(*) FROM sampled)::int AS sampled`,
        [
          clusterId,
          nodeId,
          observedAt,
          column('name'),
          column('address'),
          column('routingType'),
          column('messageCount'),
          column('consumerCount'),
          column('deliveringCount'),
          column('messagesAdded'),
          column('messagesAcknowledged'),
          column('messagesExpired'),
          column('messagesKilled'),
          column('paused'),
          column('durable'),
          column('temporary'),
          unread,
          column('firstMessageAt'),
        ],
      ),
    );
    return rows && { changed: rows[0].changed, removed: rows[0].removed };
  }

  /** A node that is no longer live serves no queues: its snapshots go (they would read as current). */
  async clearNode(nodeId: string): Promise<number> {
    const db = await this.database.whenReady();
    return (await changeOf(db, `DELETE FROM queue_snapshot WHERE node_id = $1`, [nodeId])).count;
  }

  /** Trims samples older than the cut-off in bounded batches, so the reaper never holds a long lock. */
  async reapSamples(olderThan: Date, batchSize = 10_000): Promise<number> {
    const db = await this.database.whenReady();
    return reapOlderThan(db, { table: 'metric_sample', age: 'sampled_at' }, olderThan, batchSize);
  }
}
