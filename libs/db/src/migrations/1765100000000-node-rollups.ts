import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the history written before this migration needs to run a query (a query runner, a data source). */
interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * A cluster's charts that read what a node did, not every queue (issue 32, ADR-0020): each
 * `queue_tick` carries its node's queue totals at that tick, and `node_rollup` keeps them, with
 * the node's own figures, per minute and per hour (min, max and last of the depth; peaks of the
 * rest; counts summed), each resolution kept for its own retention.
 */
export class NodeRollups1765100000000 implements MigrationInterface {
  name = 'NodeRollups1765100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE queue_tick
        ADD COLUMN depth bigint NOT NULL DEFAULT 0,
        ADD COLUMN consumers bigint NOT NULL DEFAULT 0,
        ADD COLUMN delivering bigint NOT NULL DEFAULT 0,
        ADD COLUMN added bigint NOT NULL DEFAULT 0,
        ADD COLUMN acknowledged bigint NOT NULL DEFAULT 0,
        ADD COLUMN oldest_message_at timestamptz`);
    await db.query(`
      CREATE TABLE node_rollup (
        cluster_id     uuid NOT NULL,
        resolution_s   int NOT NULL,
        bucket         timestamptz NOT NULL,
        node_id        uuid NOT NULL,
        -- The node's queues over its tier-B ticks in the bucket (no tick: the figures are null).
        ticks          int NOT NULL DEFAULT 0,
        last_tick_at   timestamptz,
        depth_min      bigint,
        depth_max      bigint,
        depth_last     bigint,
        consumers_max  bigint,
        delivering_max bigint,
        added          bigint NOT NULL DEFAULT 0,
        acknowledged   bigint NOT NULL DEFAULT 0,
        oldest_seconds_max real,
        -- The node's own figures over its tier-A samples in the bucket, the highest.
        connections_max        int,
        disk_usage_max         real,
        disk_limit_max         real,
        memory_bytes_max       bigint,
        memory_limit_bytes_max bigint,
        PRIMARY KEY (cluster_id, resolution_s, bucket, node_id)
      )`);
    await db.query(`CREATE INDEX node_rollup_age ON node_rollup USING brin (bucket)`);
    // The history kept so far: each tick's totals are what its queues' samples held at it
    // (ADR-0019's step series), and the rollups are made from those ticks and the node samples.
    await addTickTotals(db);
    for (const resolution of [60, 3600]) await rollUpHistory(db, resolution);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE node_rollup`);
    await db.query(`
      ALTER TABLE queue_tick DROP COLUMN depth, DROP COLUMN consumers, DROP COLUMN delivering,
        DROP COLUMN added, DROP COLUMN acknowledged, DROP COLUMN oldest_message_at`);
  }
}

/**
 * Gives each tick of the history (of one cluster, or of all) its node's queue totals: what its
 * queues' samples held at it, as the step series reads them (ADR-0019). Running sums, not a join of
 * every sample with every tick it held at (a week of 1,000 queues did not end in ten minutes so):
 * a sample adds its figures at its own time and takes them away at its next, and a tick's totals
 * are what was added up to it. How long the oldest message had waited is not a sum: the history
 * kept before does not get it (unknown, as for a figure never read). Exported for the tests and
 * the bench that write history as it was before.
 */
export async function addTickTotals(db: Queryable, clusterId?: string): Promise<void> {
  const scope = clusterId ? 'WHERE cluster_id = $1' : '';
  const increase = (counter: string) =>
    `CASE WHEN lag(${counter}) OVER w IS NULL THEN 0
          WHEN ${counter} >= lag(${counter}) OVER w THEN ${counter} - lag(${counter}) OVER w
          ELSE ${counter} END`;
  await db.query(
    `WITH s AS (
       SELECT node_id, sampled_at, ended, message_count, consumer_count,
              coalesce(delivering_count, 0) AS delivering, lead(sampled_at) OVER w AS until,
              ${increase('messages_added')} AS added, ${increase('messages_acknowledged')} AS acknowledged
         FROM metric_sample ${scope}
       WINDOW w AS (PARTITION BY node_id, queue ORDER BY sampled_at)
     ), stream AS (
       SELECT node_id, sampled_at AS at, 0 AS kind, message_count AS depth, consumer_count AS consumers, delivering
         FROM s WHERE NOT ended
       UNION ALL
       SELECT node_id, until, 0, -message_count, -consumer_count, -delivering
         FROM s WHERE NOT ended AND until IS NOT NULL
       UNION ALL
       SELECT node_id, ticked_at, 1, 0, 0, 0 FROM queue_tick ${scope}
     ), running AS (
       -- At a tick's time, the samples taken then count and those that ended then do not.
       SELECT node_id, at, kind, sum(depth) OVER r AS depth, sum(consumers) OVER r AS consumers,
              sum(delivering) OVER r AS delivering
         FROM stream
       WINDOW r AS (PARTITION BY node_id ORDER BY at, kind ROWS UNBOUNDED PRECEDING)
     ), counted AS (
       SELECT node_id, sampled_at, sum(added) AS added, sum(acknowledged) AS acknowledged
         FROM s WHERE NOT ended GROUP BY 1, 2
     )
     UPDATE queue_tick t
        SET depth = r.depth, consumers = r.consumers, delivering = r.delivering,
            added = coalesce(c.added, 0), acknowledged = coalesce(c.acknowledged, 0)
       FROM running r LEFT JOIN counted c ON c.node_id = r.node_id AND c.sampled_at = r.at
      WHERE r.kind = 1 AND t.node_id = r.node_id AND t.ticked_at = r.at`,
    clusterId ? [clusterId] : [],
  );
}

/** Rolls the ticks and node samples of the history (of one cluster, or of all) up at one resolution. */
export async function rollUpHistory(db: Queryable, resolutionS: number, clusterId?: string): Promise<void> {
  const scope = clusterId ? 'WHERE cluster_id = $2' : '';
  const parameters = clusterId ? [resolutionS, clusterId] : [resolutionS];
  await db.query(
    `INSERT INTO node_rollup (cluster_id, resolution_s, bucket, node_id, ticks, last_tick_at, depth_min,
                              depth_max, depth_last, consumers_max, delivering_max, added, acknowledged,
                              oldest_seconds_max)
     SELECT cluster_id, $1::int, date_bin(make_interval(secs => $1::int), ticked_at, 'epoch'), node_id, count(*),
            max(ticked_at), min(depth), max(depth), (array_agg(depth ORDER BY ticked_at DESC))[1],
            max(consumers), max(delivering), sum(added), sum(acknowledged),
            max(extract(epoch FROM ticked_at - oldest_message_at))
       FROM queue_tick ${scope} GROUP BY 1, 3, 4`,
    parameters,
  );
  await db.query(
    `INSERT INTO node_rollup AS r (cluster_id, resolution_s, bucket, node_id, connections_max, disk_usage_max,
                                   disk_limit_max, memory_bytes_max, memory_limit_bytes_max)
     SELECT cluster_id, $1::int, date_bin(make_interval(secs => $1::int), sampled_at, 'epoch'), node_id,
            max(connection_count), max(disk_usage), max(disk_limit), max(memory_bytes), max(memory_limit_bytes)
       FROM node_sample ${scope} GROUP BY 1, 3, 4
     ON CONFLICT (cluster_id, resolution_s, bucket, node_id) DO UPDATE SET
       connections_max = EXCLUDED.connections_max, disk_usage_max = EXCLUDED.disk_usage_max,
       disk_limit_max = EXCLUDED.disk_limit_max, memory_bytes_max = EXCLUDED.memory_bytes_max,
       memory_limit_bytes_max = EXCLUDED.memory_limit_bytes_max`,
    parameters,
  );
}
