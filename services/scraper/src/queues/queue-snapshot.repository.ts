import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import {
  HOURLY_HISTORY,
  NODE_ROLLUP_RESOLUTIONS_S,
  SAMPLE_HEARTBEAT_MS,
  reapHourlyHistory,
  reapOlderThan,
  rowsOf,
  whileClusterExists,
  type NodeRollupResolution,
  type Reaped,
} from '@artemis-studio/db';
import type { QueueObservation } from './queue-observation';

export interface QueueSyncResult {
  /** Queues inserted or whose figures differ from the previous tick's. */
  changed: number;
  /** Queues that existed at the previous tick and are gone now. */
  removed: number;
  /** Samples written: the changed queues, and those whose heartbeat was due. */
  sampled: number;
  /**
   * Queues sent by name whose snapshot was not there to give their figures: the caller's idea of
   * the snapshots is wrong (0 unless something else removed them), and they were left out this tick.
   */
  storedMissing: number;
}

const RATES = ['added', 'acknowledged', 'expired', 'killed'] as const;
const COUNTER = {
  added: 'messages_added',
  acknowledged: 'messages_acknowledged',
  expired: 'messages_expired',
  killed: 'messages_killed',
};
/**
 * The last tick at which the stored counters were read: the node's previous tick, unless the queue
 * went unread since its row was written (an unchanged row is not rewritten, ADR-0019).
 */
const READ_AT = `CASE WHEN s.sampled_at IS NULL THEN s.observed_at ELSE greatest(s.observed_at, (SELECT at FROM previous_tick)) END`;
/** A counter's increase per second since it was last read; unknown after a reset (the broker counts afresh). */
const rateOf = (r: (typeof RATES)[number]) =>
  `CASE WHEN EXCLUDED.observed_at > ${READ_AT} AND EXCLUDED.${COUNTER[r]} >= s.${COUNTER[r]}
        THEN (EXCLUDED.${COUNTER[r]} - s.${COUNTER[r]}) / extract(epoch FROM EXCLUDED.observed_at - ${READ_AT})::float8
   END`;

/** A queue's figures: what a snapshot holds and a tick compares, in the order the statement takes them in. */
const FIGURE_COLUMNS = [
  'address',
  'routing_type',
  'message_count',
  'consumer_count',
  'delivering_count',
  'messages_added',
  'messages_acknowledged',
  'messages_expired',
  'messages_killed',
  'paused',
  'durable',
  'temporary',
  'first_message_at',
];
/** A queue as the tick's statement takes it in: sent, or (known by name) from its snapshot. */
const INCOMING_COLUMNS = ['name', ...FIGURE_COLUMNS].join(', ');

/** A snapshot's figures, compared with the incoming ones to tell a change. */
const FIGURES = (row: string) => `(${FIGURE_COLUMNS.map((c) => `${row}.${c}`).join(', ')})`;
/** The stored snapshot `s` differs from the incoming figures (`EXCLUDED` in the upsert). */
const changedFrom = (incoming: string) => `${FIGURES('s')} IS DISTINCT FROM ${FIGURES(incoming)}`;
const CHANGED = changedFrom('EXCLUDED');
/** The stored snapshot's sample is older than the heartbeat ($19) at the tick ($3), or went unread. */
const SAMPLE_DUE = `s.sampled_at IS NULL OR s.sampled_at <= $3::timestamptz - make_interval(secs => $19::float8 / 1000)`;

/** A queue's figures a sample holds: the same columns in `queue_snapshot` and `metric_sample`. */
const SAMPLED = [
  'message_count',
  'messages_added',
  'messages_acknowledged',
  'consumer_count',
  'delivering_count',
  'first_message_at',
];
const sampleColumns = (row?: string) => SAMPLED.map((c) => (row ? `${row}.${c}` : c)).join(', ');

/** A counter's increase since the stored snapshot `s` (0 for a new queue; after a reset, all of it). */
const increaseOf = (counter: string) =>
  `CASE WHEN s.name IS NULL THEN 0 WHEN i.${counter} >= s.${counter} THEN i.${counter} - s.${counter} ELSE i.${counter} END`;

/** Folds a tick's totals (`EXCLUDED`) into a node's rollup row `r`, which tier A may have begun. */
const ROLL_UP_TICK = `
  ticks = r.ticks + 1, last_tick_at = greatest(r.last_tick_at, EXCLUDED.last_tick_at),
  depth_min = least(r.depth_min, EXCLUDED.depth_min), depth_max = greatest(r.depth_max, EXCLUDED.depth_max),
  depth_last = CASE WHEN r.last_tick_at IS NULL OR EXCLUDED.last_tick_at >= r.last_tick_at
                    THEN EXCLUDED.depth_last ELSE r.depth_last END,
  consumers_max = greatest(r.consumers_max, EXCLUDED.consumers_max),
  delivering_max = greatest(r.delivering_max, EXCLUDED.delivering_max),
  added = r.added + EXCLUDED.added, acknowledged = r.acknowledged + EXCLUDED.acknowledged,
  oldest_seconds_max = greatest(r.oldest_seconds_max, EXCLUDED.oldest_seconds_max)`;

/**
 * Writes one node's tier-B tick in one statement: upsert every snapshot, delete the queues that
 * disappeared, and let PostgreSQL say what really changed (changed_at moves only when a figure
 * differs), so the diff is against the persisted state. The history costs what changes (ADR-0019):
 * a metric sample only for a queue that changed or whose heartbeat is due, an ended sample for one
 * removed or left unread (what it holds is unknown from here), and a tick that says the node's
 * queues were read and what they held in total, folded into its minute and hour rollups
 * (ADR-0020); a snapshot that did not change, whose rates are already 0, is not rewritten.
 * Rates come from the same comparison: each counter's increase since it was last read. Queues
 * whose figures the caller knows their snapshot holds come by name only, and their figures from
 * the snapshot (ADR-0024). Null, writing nothing, when the cluster has been deleted meanwhile.
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
    /**
     * Queues read this tick with the figures their snapshot holds, by name: their figures come
     * from the snapshot (StoredQueues), and they count as read as much as those in `queues`.
     */
    stored: readonly string[] = [],
  ): Promise<QueueSyncResult | null> {
    const db = await this.database.whenReady();
    const column = <K extends keyof QueueObservation>(key: K) => queues.map((q) => q[key]);
    const rows = await whileClusterExists(db, clusterId, (tx) =>
      rowsOf<QueueSyncResult>(
        tx,
        `WITH stored AS (
         SELECT ${INCOMING_COLUMNS} FROM queue_snapshot WHERE node_id = $2 AND name = ANY ($22::text[])
       ),
       incoming AS (
         SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::int[], $9::bigint[],
                              $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bool[], $15::bool[], $16::bool[],
                              $18::timestamptz[])
           AS t(${INCOMING_COLUMNS})
         UNION ALL SELECT * FROM stored
       ),
       previous_tick AS (
         -- Within a day ($21, a parameter so that planning leaves out the older hours' partitions,
         -- ADR-0021): a node unread for longer has its rates over its queues' last writes.
         SELECT max(ticked_at) AS at FROM queue_tick
          WHERE cluster_id = $1 AND node_id = $2 AND ticked_at < $3 AND ticked_at >= $21
       ),
       -- Only what changed, is new, has a sample due or rates still to fall to 0 goes to the upsert:
       -- an unchanged row it saw would be locked (a WAL record each) though left as it was.
       due AS (
         SELECT i.* FROM incoming i LEFT JOIN queue_snapshot s ON s.node_id = $2 AND s.name = i.name
          WHERE s.name IS NULL OR ${changedFrom('i')} OR ${SAMPLE_DUE}
             OR (s.added_per_second, s.acknowledged_per_second, s.expired_per_second, s.killed_per_second)
                IS DISTINCT FROM (0, 0, 0, 0)
       ),
       upserted AS (
         INSERT INTO queue_snapshot AS s (node_id, cluster_id, observed_at, changed_at, name, address, routing_type,
           message_count, consumer_count, delivering_count, messages_added, messages_acknowledged, messages_expired,
           messages_killed, paused, durable, temporary, first_message_at, sampled_at)
         SELECT $2, $1, $3, $3, i.*, $3 FROM due i
         ON CONFLICT (node_id, name) DO UPDATE SET
           changed_at = CASE WHEN ${CHANGED} THEN EXCLUDED.observed_at ELSE s.changed_at END,
           sampled_at = CASE WHEN ${CHANGED} OR ${SAMPLE_DUE} THEN EXCLUDED.observed_at ELSE s.sampled_at END,
           observed_at = EXCLUDED.observed_at, address = EXCLUDED.address, routing_type = EXCLUDED.routing_type,
           message_count = EXCLUDED.message_count, consumer_count = EXCLUDED.consumer_count,
           delivering_count = EXCLUDED.delivering_count, messages_added = EXCLUDED.messages_added,
           messages_acknowledged = EXCLUDED.messages_acknowledged, messages_expired = EXCLUDED.messages_expired,
           messages_killed = EXCLUDED.messages_killed, paused = EXCLUDED.paused, durable = EXCLUDED.durable,
           temporary = EXCLUDED.temporary, first_message_at = EXCLUDED.first_message_at,
           ${RATES.map((r) => `${r}_per_second = ${rateOf(r)}`).join(', ')}
         RETURNING s.name, s.changed_at = s.observed_at AS changed, s.sampled_at = s.observed_at AS sampled
       ),
       removed AS (
         DELETE FROM queue_snapshot
          WHERE node_id = $2 AND NOT (name = ANY ($4::text[]) OR name = ANY ($17::text[]) OR name = ANY ($22::text[]))
         RETURNING name, ${sampleColumns()}
       ),
       -- Unread this tick: its sample no longer holds, and the next read samples it afresh.
       unread AS (
         UPDATE queue_snapshot SET sampled_at = NULL
          WHERE node_id = $2 AND name = ANY ($17::text[]) AND sampled_at IS NOT NULL
         RETURNING name, ${sampleColumns()}
       ),
       sampled AS (
         INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, ${sampleColumns()})
         SELECT $3, $1, $2, i.name, ${sampleColumns('i')}
           FROM incoming i JOIN upserted u ON u.name = i.name AND u.sampled
         RETURNING 1
       ),
       ended AS (
         INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, ${sampleColumns()}, ended)
         SELECT $3, $1, $2, e.*, true FROM (SELECT * FROM removed UNION ALL SELECT * FROM unread) e
         RETURNING 1
       ),
       -- The node's queues in total at this tick (those read), so a cluster's chart reads a row
       -- per node and tick, or per minute or hour, instead of every queue (ADR-0020).
       totals AS (
         SELECT coalesce(sum(i.message_count), 0) AS depth, coalesce(sum(i.consumer_count), 0) AS consumers,
                coalesce(sum(i.delivering_count), 0) AS delivering, min(i.first_message_at) AS oldest_message_at,
                coalesce(sum(${increaseOf('messages_added')}), 0) AS added,
                coalesce(sum(${increaseOf('messages_acknowledged')}), 0) AS acknowledged
           FROM incoming i LEFT JOIN queue_snapshot s ON s.node_id = $2 AND s.name = i.name
       ),
       ticked AS (
         INSERT INTO queue_tick (ticked_at, cluster_id, node_id, depth, consumers, delivering, added, acknowledged,
                                 oldest_message_at)
         SELECT $3, $1, $2, depth, consumers, delivering, added, acknowledged, oldest_message_at FROM totals
         RETURNING 1
       ),
       rolled_up AS (
         INSERT INTO node_rollup AS r (cluster_id, resolution_s, bucket, node_id, ticks, last_tick_at, depth_min,
                                       depth_max, depth_last, consumers_max, delivering_max, added, acknowledged,
                                       oldest_seconds_max)
         SELECT $1, res, date_bin(make_interval(secs => res), $3::timestamptz, 'epoch'), $2, 1, $3, t.depth,
                t.depth, t.depth, t.consumers, t.delivering, t.added, t.acknowledged,
                extract(epoch FROM $3::timestamptz - t.oldest_message_at)
           FROM totals t, unnest($20::int[]) res
         ON CONFLICT (cluster_id, resolution_s, bucket, node_id) DO UPDATE SET ${ROLL_UP_TICK}
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM upserted WHERE changed)::int AS changed,
              (SELECT count(*) FROM removed)::int AS removed,
              (SELECT count(*) FROM sampled)::int AS sampled,
              cardinality($22::text[]) - (SELECT count(*) FROM stored)::int AS "storedMissing"`,
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
          SAMPLE_HEARTBEAT_MS,
          NODE_ROLLUP_RESOLUTIONS_S,
          new Date(observedAt.getTime() - 86_400_000),
          stored,
        ],
      ),
    );
    return rows && rows[0];
  }

  /**
   * A node that is no longer live serves no queues: its snapshots go (they would read as current),
   * and each queue's series ends (its last sample would hold again once the node is live again).
   */
  async clearNode(nodeId: string): Promise<number> {
    const db = await this.database.whenReady();
    const rows = await rowsOf<{ cleared: number }>(
      db,
      `WITH cleared AS (
         DELETE FROM queue_snapshot WHERE node_id = $1
         RETURNING cluster_id, node_id, name, ${sampleColumns()}
       ), ended AS (
         INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, ${sampleColumns()}, ended)
         SELECT now(), c.*, true FROM cleared c
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM ended)::int AS cleared`,
      [nodeId],
    );
    return rows[0].cleared;
  }

  /** Removes samples and ticks older than the cut-off: whole hours dropped, the rest in bounded batches (ADR-0021). */
  async reapSamples(olderThan: Date, batchSize = 10_000): Promise<Reaped> {
    const db = await this.database.whenReady();
    const samples = await reapHourlyHistory(db, HOURLY_HISTORY.metric_sample, olderThan, batchSize);
    const ticks = await reapHourlyHistory(db, HOURLY_HISTORY.queue_tick, olderThan, batchSize);
    return { rows: samples.rows + ticks.rows, partitions: samples.partitions + ticks.partitions };
  }

  /** Trims the nodes' rollups of one resolution that began before the cut-off (ADR-0020). */
  async reapRollups(resolution: NodeRollupResolution, olderThan: Date, batchSize = 10_000): Promise<number> {
    const db = await this.database.whenReady();
    return reapOlderThan(
      db,
      { table: 'node_rollup', age: 'bucket', scope: `resolution_s = ${Number(resolution)}` },
      olderThan,
      batchSize,
    );
  }
}
