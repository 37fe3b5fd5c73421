import type { MetricsResponse } from '@artemis-studio/contracts';
import {
  firstRow,
  lookbackFrom,
  NODE_ROLLUP_RESOLUTIONS_S,
  rowsOf,
  samplesHeldAtTicks,
  type Sql,
} from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { clusterSeriesSource, type MetricRange } from './metric-range';
import { binOf, windowOf } from './metric-window';

/** A series' figures per node (`p`, its name `n`) and in total, by bucket. */
const PER_NODE_AND_TOTAL = `
  coalesce(n.name, 'removed node') AS node, grouping(n.name) = 1 AS total, p.bucket,
  sum(p.depth)::float8 AS depth, sum(p.consumers)::float8 AS consumers, sum(p.added)::float8 AS added,
  sum(p.acknowledged)::float8 AS acknowledged, sum(p.delivering)::float8 AS delivering,
  max(p.oldest_seconds)::float8 AS oldest_seconds`;

/**
 * A cluster's nodes in buckets from their ticks (ADR-0020): each tick holds its node's queue
 * totals; the node's own figures are its tier-A samples', the highest in the bucket.
 */
const NODES_FROM_TICKS = `
  queues_per_node AS (
    SELECT node_id, ${binOf('ticked_at')} AS bucket, max(depth) AS depth, min(depth) AS depth_min,
           (array_agg(depth ORDER BY ticked_at DESC))[1] AS depth_last, max(consumers) AS consumers,
           sum(added) AS added, sum(acknowledged) AS acknowledged, max(delivering) AS delivering,
           max(extract(epoch FROM ticked_at - oldest_message_at)) AS oldest_seconds
      FROM queue_tick WHERE cluster_id = $1 AND ticked_at >= $2 AND ticked_at < $3
     GROUP BY 1, 2
  ), node_figures AS (
    SELECT node_id, ${binOf('sampled_at')} AS bucket, max(connection_count) AS connections,
           max(disk_usage) AS disk_usage, max(disk_limit) AS disk_limit, max(memory_bytes) AS memory_bytes,
           max(memory_limit_bytes) AS memory_limit_bytes
      FROM node_sample WHERE cluster_id = $1 AND sampled_at >= $2 AND sampled_at < $3
     GROUP BY 1, 2
  )`;

/**
 * The same from the nodes' rollups of $5 seconds: a rollup that began before the range and ends
 * in it counts in the first bucket; one without a tick holds the node's own figures only.
 */
const NODES_FROM_ROLLUPS = `
  rolled_up AS (
    SELECT *, greatest(${binOf('bucket')}, $2::timestamptz) AS bin
      FROM node_rollup
     WHERE cluster_id = $1 AND resolution_s = $5
       AND bucket > $2::timestamptz - make_interval(secs => $5) AND bucket < $3
  ), queues_per_node AS (
    SELECT node_id, bin AS bucket, max(depth_max) AS depth, min(depth_min) AS depth_min,
           (array_agg(depth_last ORDER BY last_tick_at DESC))[1] AS depth_last, max(consumers_max) AS consumers,
           sum(added) AS added, sum(acknowledged) AS acknowledged, max(delivering_max) AS delivering,
           max(oldest_seconds_max) AS oldest_seconds
      FROM rolled_up WHERE ticks > 0
     GROUP BY 1, 2
  ), node_figures AS (
    SELECT node_id, bin AS bucket, max(connections_max) AS connections, max(disk_usage_max) AS disk_usage,
           max(disk_limit_max) AS disk_limit, max(memory_bytes_max) AS memory_bytes,
           max(memory_limit_bytes_max) AS memory_limit_bytes
      FROM rolled_up
     GROUP BY 1, 2
  )`;

/**
 * A cluster's series: each node's queue totals beside its own figures; a bucket with one and not
 * the other still counts (a node with no queue).
 */
const CLUSTER_SERIES = (nodes: string) => `
  WITH ${nodes}, per_node AS (
    SELECT coalesce(q.node_id, c.node_id) AS node_id, coalesce(q.bucket, c.bucket) AS bucket,
           coalesce(q.depth, 0) AS depth, coalesce(q.depth_min, 0) AS depth_min,
           coalesce(q.depth_last, 0) AS depth_last, coalesce(q.consumers, 0) AS consumers,
           coalesce(q.added, 0) AS added, coalesce(q.acknowledged, 0) AS acknowledged,
           coalesce(q.delivering, 0) AS delivering, q.oldest_seconds,
           c.connections, c.disk_usage, c.disk_limit, c.memory_bytes, c.memory_limit_bytes
      FROM queues_per_node q
      FULL JOIN node_figures c ON c.node_id = q.node_id AND c.bucket = q.bucket
  )
  SELECT ${PER_NODE_AND_TOTAL}, sum(p.depth_min)::float8 AS depth_min, sum(p.depth_last)::float8 AS depth_last,
         sum(p.connections)::float8 AS connections, max(p.disk_usage)::float8 AS disk_usage,
         max(p.disk_limit)::float8 AS disk_limit, max(p.memory_bytes)::float8 AS memory_bytes,
         max(p.memory_limit_bytes)::float8 AS memory_limit_bytes
    FROM per_node p LEFT JOIN cluster_node n ON n.id = p.node_id
   GROUP BY GROUPING SETS ((p.bucket, n.name), (p.bucket))
   ORDER BY total DESC, node, p.bucket`;

/** One bucket of one node's series (node null and total true: the cluster's). */
interface SeriesRecord {
  node: string | null;
  total: boolean;
  bucket: Date;
  depth: number;
  consumers: number;
  added: number;
  acknowledged: number;
  delivering: number | null;
  oldest_seconds: number | null;
}

/** The same of a cluster's series, with each node's own figures. */
interface ClusterSeriesRecord extends SeriesRecord {
  depth_min: number;
  depth_last: number;
  connections: number | null;
  disk_usage: number | null;
  disk_limit: number | null;
  memory_bytes: number | null;
  memory_limit_bytes: number | null;
}

/**
 * Downsampled series, each in one statement, per node and in total: a queue's from its samples
 * (index metric_sample_series), a cluster's from its nodes' ticks or rollups.
 */
/** Where a queue's or an address's name is kept: its snapshot's column, and its samples' table. */
const KNOWN_IN = {
  queue: { snapshot: 'name', samples: 'metric_sample' },
  address: { snapshot: 'address', samples: 'address_sample' },
} as const;

@Injectable()
export class MetricQueries {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Whether the cluster has, or had within the samples kept, a queue (or an address) of that name:
   * one whose series may be asked for.
   */
  async known(kind: 'queue' | 'address', clusterId: string, name: string): Promise<boolean> {
    const { snapshot, samples } = KNOWN_IN[kind];
    const row = await firstRow<{ known: boolean }>(
      await this.database.forRequest(),
      `SELECT EXISTS (SELECT 1 FROM queue_snapshot WHERE cluster_id = $1 AND ${snapshot} = $2)
           OR EXISTS (SELECT 1 FROM ${samples} WHERE cluster_id = $1 AND ${kind} = $2) AS known`,
      [clusterId, name],
    );
    return row?.known ?? false;
  }

  /** One queue's series, or (queue null) the cluster's: every queue summed. */
  async series(clusterId: string, queue: string | null, range: MetricRange): Promise<MetricsResponse> {
    return queue === null ? this.clusterSeries(clusterId, range) : this.queueSeries(clusterId, queue, range);
  }

  /**
   * A cluster's series from its nodes' queue totals (ADR-0020): per tick for a short range, per
   * minute or hour rollup for a longer one, whichever is kept that far back.
   */
  private async clusterSeries(clusterId: string, range: MetricRange): Promise<MetricsResponse> {
    const db = await this.database.forRequest();
    const source = clusterSeriesSource(range, await this.historyKept(db, clusterId));
    const read = { ...range, stepMs: source.stepMs };
    const rows = await rowsOf<ClusterSeriesRecord>(
      db,
      source.resolutionS === 0 ? CLUSTER_SERIES(NODES_FROM_TICKS) : CLUSTER_SERIES(NODES_FROM_ROLLUPS),
      [clusterId, read.from, read.to, read.stepMs, ...(source.resolutionS === 0 ? [] : [source.resolutionS])],
    );
    return windowOf(read, rows, (r) => ({
      ...pointOf(r),
      depthMin: r.depth_min,
      depthLast: r.depth_last,
      connections: r.connections,
      // A node's own figures: on its series, not on the total (a sum of disks means nothing).
      ...(!r.total && {
        diskUsage: r.disk_usage,
        diskLimit: r.disk_limit,
        memoryBytes: r.memory_bytes,
        memoryLimitBytes: r.memory_limit_bytes,
      }),
    }));
  }

  /** The oldest history kept of a cluster at each resolution: its nodes' ticks (0) and rollups. */
  private async historyKept(db: Sql, clusterId: string): Promise<Map<number, Date | null>> {
    const row = await firstRow<{ ticks: Date | null; rollups: (string | null)[] }>(
      db,
      // Index lookups: a node's first tick (queue_tick_series, one probe per hour's partition), a
      // resolution's first bucket (node_rollup's key).
      `SELECT (SELECT min(first) FROM cluster_node n
                 CROSS JOIN LATERAL (SELECT min(ticked_at) AS first FROM queue_tick
                                      WHERE cluster_id = $1 AND node_id = n.id) t
                WHERE n.cluster_id = $1) AS ticks,
              ARRAY(SELECT (SELECT min(bucket) FROM node_rollup WHERE cluster_id = $1 AND resolution_s = r)
                      FROM unnest($2::int[]) WITH ORDINALITY AS x(r, i) ORDER BY i) AS rollups`,
      [clusterId, NODE_ROLLUP_RESOLUTIONS_S],
    );
    return new Map<number, Date | null>([
      [0, row?.ticks ?? null],
      ...NODE_ROLLUP_RESOLUTIONS_S.map((r, i): [number, Date | null] => [
        r,
        row?.rollups[i] ? new Date(row.rollups[i]) : null,
      ]),
    ]);
  }

  /** One queue's series from its samples (ADR-0019), each held at its node's ticks until its next. */
  private async queueSeries(clusterId: string, queue: string, range: MetricRange): Promise<MetricsResponse> {
    const increase = (column: string) => `
      CASE WHEN lag(${column}) OVER w IS NULL THEN 0
           WHEN ${column} >= lag(${column}) OVER w THEN ${column} - lag(${column}) OVER w
           ELSE ${column} END`; // below the last value: the broker restarted and counts afresh
    const rows = await rowsOf<SeriesRecord>(
      await this.database.forRequest(),
      // A queue's sample holds at every tick of its node from its own until its next sample
      // (ADR-0019): a bucket's figures are those its node's ticks saw, and a bucket without a tick
      // is unknown. A counter's increase is counted at the tick its sample was taken at.
      `WITH s AS (
         SELECT node_id, queue, sampled_at, ended, message_count, consumer_count, delivering_count, first_message_at,
                coalesce(lead(sampled_at) OVER w, 'infinity') AS until, lead(ended) OVER w AS ends,
                ${increase('messages_added')} AS added,
                ${increase('messages_acknowledged')} AS acknowledged
           FROM metric_sample
          WHERE cluster_id = $1 AND queue = $5
            AND sampled_at >= $6
            AND sampled_at < $3
         WINDOW w AS (PARTITION BY node_id, queue ORDER BY sampled_at)
       ), ${samplesHeldAtTicks('$6')}, p AS (
         SELECT node_id, ${binOf('ticked_at')} AS bucket,
                max(message_count) AS depth, max(consumer_count) AS consumers,
                coalesce(sum(added) FILTER (WHERE ticked_at = sampled_at), 0) AS added,
                coalesce(sum(acknowledged) FILTER (WHERE ticked_at = sampled_at), 0) AS acknowledged,
                max(delivering_count) AS delivering,
                max(extract(epoch FROM ticked_at - first_message_at)) AS oldest_seconds
           FROM held
          GROUP BY 1, 2
       )
       SELECT ${PER_NODE_AND_TOTAL}
         FROM p LEFT JOIN cluster_node n ON n.id = p.node_id
        GROUP BY GROUPING SETS ((p.bucket, n.name), (p.bucket))
        ORDER BY total DESC, node, p.bucket`,
      [clusterId, range.from, range.to, range.stepMs, queue, lookbackFrom(range.from)],
    );
    return windowOf(range, rows, pointOf);
  }
}

/** The figures a queue's series and a cluster's have in common. */
function pointOf(r: SeriesRecord): MetricsResponse['series'][number]['points'][number] {
  return {
    t: r.bucket.toISOString(),
    depth: r.depth,
    consumers: r.consumers,
    added: r.added,
    acknowledged: r.acknowledged,
    delivering: r.delivering,
    oldestSeconds: r.oldest_seconds,
  };
}
