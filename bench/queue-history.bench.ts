/**
 * What the queue history costs PostgreSQL per tier-B tick as the share of changing queues grows
 * (issue 32, item 2; ADR-0019):
 *   npm run bench -- queue-history      (BENCH_QUEUES=5000, BENCH_TICKS=40 by default)
 * One node's ticks written by the scraper's own statement into a fresh database, at 0, 5, 50 and
 * 100% of queues changing per tick. The baseline is 100%: every queue sampled at every tick is what
 * the history cost before, whatever changed. Rows are the samples and ticks written; WAL is what
 * PostgreSQL logged for the whole tick (the snapshots' upsert included, which both pay).
 */
import { createDataSource, QUEUE_SAMPLE_HEARTBEAT_MS, type Sql } from '@artemis-studio/db';

/** The bench's connection: typeorm's DataSource, as `createDataSource` makes it. */
type Database = ReturnType<typeof createDataSource>;
import { createTestDatabase, insertCluster } from '@artemis-studio/testing';
import type { QueueObservation } from '../services/scraper/src/queues/queue-observation';
import { QueueSnapshotRepository } from '../services/scraper/src/queues/queue-snapshot.repository';
import { runBench } from './support/run-bench';

const QUEUES = Number(process.env.BENCH_QUEUES ?? 5000);
const TICKS = Number(process.env.BENCH_TICKS ?? 40);
const TIER_B_MS = 15_000;
const SHARES = [0, 0.05, 0.5, 1];

interface Figures {
  share: number;
  rowsPerTick: number;
  walBytesPerTick: number;
  msPerTick: number;
  /** Samples a queue costs a day at this share, the heartbeat's included. */
  samplesPerQueuePerDay: number;
  bytesPerQueuePerDay: number;
}

const observation = (i: number, depth: number): QueueObservation => ({
  name: `bench.q.${i}`,
  address: `bench.q.${i}`,
  routingType: 'ANYCAST',
  messageCount: depth,
  consumerCount: 1,
  deliveringCount: 0,
  messagesAdded: depth,
  messagesAcknowledged: 0,
  messagesExpired: 0,
  messagesKilled: 0,
  paused: false,
  durable: true,
  temporary: false,
  firstMessageAt: null,
});

async function walLsn(db: Sql): Promise<string> {
  return ((await db.query(`SELECT pg_current_wal_lsn()::text AS lsn`)) as { lsn: string }[])[0].lsn;
}

async function walBytesSince(db: Sql, lsn: string): Promise<number> {
  const [row] = (await db.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 AS bytes`, [
    lsn,
  ])) as { bytes: number }[];
  return row.bytes;
}

async function measure(db: Database, share: number): Promise<Figures> {
  const cluster = await insertCluster(db, {
    nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
  });
  const node = cluster.nodeIds[0];
  const repository = new QueueSnapshotRepository({ whenReady: async () => db });
  const depths = Array.from({ length: QUEUES }, () => 0);
  const changing = Math.round(QUEUES * share);
  const start = Date.UTC(2026, 11, 1);
  // The first tick samples every queue (none was known), and the second writes their first rates
  // (unknown until then): not what a running scraper pays.
  for (const tick of [-1, 0])
    await repository.sync(
      cluster.id,
      node,
      depths.map((d, i) => observation(i, d)),
      new Date(start + tick * TIER_B_MS),
    );
  const rowsBefore = await rowsOf(db, cluster.id);
  const lsn = await walLsn(db);
  const began = performance.now();
  for (let tick = 1; tick <= TICKS; tick++) {
    // The same queues change at every tick (the busy ones); the rest stay flat and heartbeat.
    for (let k = 0; k < changing; k++) depths[k]++;
    await repository.sync(
      cluster.id,
      node,
      depths.map((d, i) => observation(i, d)),
      new Date(start + tick * TIER_B_MS),
    );
  }
  const msPerTick = (performance.now() - began) / TICKS;
  const walBytesPerTick = (await walBytesSince(db, lsn)) / TICKS;
  const rowsPerTick = ((await rowsOf(db, cluster.id)) - rowsBefore) / TICKS;
  // A day's samples per queue: the changes, and a heartbeat for every stretch without one.
  const ticksPerDay = 86_400_000 / TIER_B_MS;
  const heartbeatsPerDay = 86_400_000 / (QUEUE_SAMPLE_HEARTBEAT_MS + TIER_B_MS);
  const samplesPerQueuePerDay = Math.min(ticksPerDay, ticksPerDay * share + heartbeatsPerDay * (1 - share));
  const [{ bytes }] = (await db.query(
    `SELECT (pg_total_relation_size('metric_sample')::float8 / greatest(count(*), 1)) AS bytes FROM metric_sample`,
  )) as { bytes: number }[];
  return {
    share,
    rowsPerTick,
    walBytesPerTick,
    msPerTick,
    samplesPerQueuePerDay,
    bytesPerQueuePerDay: samplesPerQueuePerDay * bytes,
  };
}

async function rowsOf(db: Sql, clusterId: string): Promise<number> {
  const [row] = (await db.query(
    `SELECT (SELECT count(*) FROM metric_sample WHERE cluster_id = $1)
          + (SELECT count(*) FROM queue_tick WHERE cluster_id = $1) AS n`,
    [clusterId],
  )) as { n: string }[];
  return Number(row.n);
}

async function main(): Promise<void> {
  const database = await createTestDatabase({ migrated: true });
  const db = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
  try {
    const figures: Figures[] = [];
    for (const share of SHARES) figures.push(await measure(db, share));
    const baseline = figures.find((f) => f.share === 1)!;
    console.log(
      `queue history, ${QUEUES} queues on one node, ${TICKS} tier-B ticks of ${TIER_B_MS / 1000} s each; baseline: 100% changing (every queue sampled every tick, as before ADR-0019)`,
    );
    console.log(
      'changing | rows/tick | ratio | WAL KB/tick | ratio | ms/tick | samples/queue/day | KB/queue/day | ratio',
    );
    for (const f of figures)
      console.log(
        [
          `${(f.share * 100).toFixed(0)}%`,
          f.rowsPerTick.toFixed(0),
          `${(baseline.rowsPerTick / f.rowsPerTick).toFixed(1)}x fewer`,
          (f.walBytesPerTick / 1024).toFixed(0),
          `${(baseline.walBytesPerTick / f.walBytesPerTick).toFixed(1)}x less`,
          f.msPerTick.toFixed(0),
          f.samplesPerQueuePerDay.toFixed(0),
          (f.bytesPerQueuePerDay / 1024).toFixed(1),
          `${(baseline.bytesPerQueuePerDay / f.bytesPerQueuePerDay).toFixed(1)}x less`,
        ].join(' | '),
      );
  } finally {
    await db.destroy();
    await database.drop();
  }
}

runBench(__filename, main);
