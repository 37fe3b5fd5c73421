import { MetricsResponseSchema, type MetricsResponse } from '@artemis-studio/contracts';
import { addTickTotals, createDataSource } from '@artemis-studio/db';
import {
  insertCluster,
  signIn,
  spawnService,
  testDatabaseUrl,
  type ApiSession,
  type ServiceProcess,
} from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';

/** A cluster's queue state and history against real PostgreSQL: filters, downsampling, bounds, bad input. */

/**
 * What the queue-state suites read: one cluster's queues, samples, ticks and rollups written
 * straight into real PostgreSQL at known times, and a gateway serving them.
 */
export class QueueStateStack {
  db!: DataSource;
  gateway!: ServiceProcess;
  api!: ApiSession;
  clusterId!: string;
  cluster!: { id: string; nodeIds: string[] };
  // Within the samples' retention whenever the suite runs, on a whole hour so buckets align.
  readonly T0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000;
  readonly SAMPLE_MS = 15_000;
  readonly QUEUE = 'orders.in';

  readonly get = async (path: string) => {
    const response = await this.api.fetch(`${this.gateway.url}/api/v1/clusters/${this.clusterId}${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };
  readonly metrics = async (path: string): Promise<MetricsResponse> => {
    const { status, body } = await this.get(path);
    expect(status).toBe(200);
    return MetricsResponseSchema.parse(body);
  };
  readonly iso = (ms: number) => new Date(ms).toISOString();

  async start(): Promise<void> {
    this.db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    this.cluster = await insertCluster(this.db, {
      nodes: [
        { name: 'a', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' },
        { name: 'b', jolokiaUrl: 'http://127.0.0.1:2/console/jolokia' },
      ],
    });
    this.clusterId = this.cluster.id;
    // Two hours of tier-B samples on both nodes. Node a: depth i % 50, 10 messages added per
    // sample, a broker restart (counters from zero) at sample 200. Node b: depth 5, nothing moves.
    const rows: unknown[][] = [];
    for (let i = 0; i < 480; i++) {
      const t = new Date(this.T0 + i * this.SAMPLE_MS);
      const added = i < 200 ? 1000 + 10 * i : 10 * (i - 200 + 1);
      rows.push([t, this.clusterId, this.cluster.nodeIds[0], this.QUEUE, i % 50, added, added, i % 3]);
      rows.push([t, this.clusterId, this.cluster.nodeIds[1], this.QUEUE, 5, 7, 7, 1]);
      rows.push([t, this.clusterId, this.cluster.nodeIds[0], 'other', 100, 0, 0, 0]);
    }
    await this.db.query(
      `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                  messages_acknowledged, consumer_count)
       SELECT * FROM unnest($1::timestamptz[], $2::uuid[], $3::uuid[], $4::text[], $5::bigint[], $6::bigint[],
                            $7::bigint[], $8::int[])`,
      rows[0].map((_, column) => rows.map((r) => r[column])),
    );
    // Node a's connections for the first hour: i % 7 at tier-A sample i (every 15 s). Node b: none sampled.
    await this.db.query(
      `INSERT INTO node_sample (sampled_at, cluster_id, node_id, connection_count, disk_usage, disk_limit,
                               memory_bytes, memory_limit_bytes)
       SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => i * 15), $2, $3, i % 7,
              0.5 + i / 1000.0, 0.9, 1000 * i, 1000000
         FROM generate_series(0, 239) AS i`,
      [this.T0, this.clusterId, this.cluster.nodeIds[0]],
    );
    // Queue 'aged' on node a for two minutes: i messages in delivery at sample i, its oldest message
    // sent a minute before T0 until sample 5, then none dated (drained); deleted at sample 8.
    await this.db.query(
      `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                  messages_acknowledged, consumer_count, delivering_count, first_message_at, ended)
       SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => i * 15), $2::uuid, $3::uuid, 'aged', 10, 0, 0, 1, i,
              CASE WHEN i <= 5 THEN to_timestamp($1::float8 / 1000) - interval '60 seconds' END, i = 8
         FROM generate_series(0, 8) AS i`,
      [this.T0, this.clusterId, this.cluster.nodeIds[0]],
    );
    // Address orders.in for the first 10 minutes, as the scraper writes it (ADR-0022): node a fills
    // 1 KB per tick and pages from tick 30, its limit percentage unknown for the first 4 ticks; node
    // b holds 500 bytes, 4%, sampled when first read and when read again. Neither node's addresses
    // were read in minute 8 (ticks 32..35, ended at 32): a gap, not a zero, though its queues were.
    await this.db.query(
      `INSERT INTO address_sample (sampled_at, cluster_id, node_id, address, size_bytes, paging, pages, limit_percent,
                                   ended)
       SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => i * 15), $2::uuid, $3::uuid, $5::text,
              1000 * i, i >= 30, greatest(i - 29, 0), CASE WHEN i >= 4 THEN least(i, 101) END, i = 32
         FROM generate_series(0, 39) AS i WHERE i NOT BETWEEN 33 AND 35
       UNION ALL
       SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => i * 15), $2::uuid, $4::uuid, $5::text, 500, false,
              0, 4, i = 32
         FROM unnest(ARRAY[0, 32, 36]) AS i`,
      [this.T0, this.clusterId, this.cluster.nodeIds[0], this.cluster.nodeIds[1], this.QUEUE],
    );
    // Each node's queues were read at every one of those samples (ADR-0019: a sample holds at its
    // node's ticks until the next), as the migration dates the history kept before ticks were.
    await this.db.query(
      `INSERT INTO queue_tick (ticked_at, cluster_id, node_id)
       SELECT DISTINCT sampled_at, cluster_id, node_id FROM metric_sample WHERE cluster_id = $1`,
      [this.clusterId],
    );
    /** A queue sampled once and ended later, both at seconds after T0, its figures unchanged. */
    const sampledThenEnded = (node: string, queue: string, depth: number, consumers: number, at: number[]) =>
      this.db.query(
        `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                    messages_acknowledged, consumer_count, ended)
         SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => t.s), $2, $3, $4, $5, 0, 0, $6, t.i = 2
           FROM unnest($7::float8[]) WITH ORDINALITY AS t(s, i)`,
        [this.T0, this.clusterId, node, queue, depth, consumers, at],
      );
    // Queue 'flat' on node b, sampled once at minute 90 (7 messages) and ended at minute 110 (its
    // node no longer live); node b's queues went unread through minute 100.
    await sampledThenEnded(this.cluster.nodeIds[1], 'flat', 7, 1, [90 * 60, 110 * 60]);
    // Queue 'brief' on node a, sampled at 30:45 and ended at 31:05, off its node's ticks (its
    // node no longer live): it held at the tick of 31:00 too.
    await sampledThenEnded(this.cluster.nodeIds[0], 'brief', 3, 0, [30 * 60 + 45, 31 * 60 + 5]);
    await this.db.query(
      `DELETE FROM queue_tick WHERE node_id = $1 AND ticked_at >= to_timestamp($2::float8 / 1000) + interval '100 minutes'
                                AND ticked_at < to_timestamp($2::float8 / 1000) + interval '101 minutes'`,
      [this.cluster.nodeIds[1], this.T0],
    );
    // Each tick with its node's queue totals, as the scraper writes them (ADR-0020); no rollups yet.
    await addTickTotals(this.db, this.clusterId);
    this.gateway = await spawnService('gateway', 18490);
    this.api = await signIn(this.gateway.url);
  }

  async stop(): Promise<void> {
    await this.gateway?.stop();
    await this.db.query(`DELETE FROM queue_snapshot WHERE cluster_id = $1`, [this.clusterId]);
    await this.db.query(`DELETE FROM cluster WHERE id = $1`, [this.clusterId]);
    await this.db.query(`DELETE FROM metric_sample WHERE cluster_id = $1`, [this.clusterId]);
    await this.db.query(`DELETE FROM queue_tick WHERE cluster_id = $1`, [this.clusterId]);
    await this.db.query(`DELETE FROM node_rollup WHERE cluster_id = $1`, [this.clusterId]);
    await this.db.query(`DELETE FROM node_sample WHERE cluster_id = $1`, [this.clusterId]);
    await this.db.query(`DELETE FROM address_sample WHERE cluster_id = $1`, [this.clusterId]);
    await this.db.destroy();
  }
}
