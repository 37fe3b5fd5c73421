/**
 * What the queue history costs PostgreSQL per tier-B tick as the share of changing queues grows
 * (issue 32, item 2; ADR-0019):
 *   npm run bench -- queue-history      (BENCH_QUEUES=5000, BENCH_TICKS=40 by default)
 * One node's ticks written by the scraper's own statement into a fresh database, at 0, 5, 50 and
 * 100% of queues changing per tick. The baseline is 100%: every queue sampled at every tick is what
 * the history cost before, whatever changed. Rows are the samples and ticks written; WAL is what
 * PostgreSQL logged for the whole tick (the snapshots' upsert included, which both pay). Each share
 * twice: the queues whose figures are stored sent by name, as the scraper does (ADR-0024), and
 * every queue sent in full, as before: the caller's CPU per tick for each.
 * Then the charts: a cluster of BENCH_CHART_QUEUES (1,000) with BENCH_CHART_DAYS (7) of history at
 * 5% changing, read by the gateway's own series queries over an hour, a day and the whole history
 * (a queue's from its samples, the cluster's from its node's ticks or rollups, ADR-0020), against
 * the goal of 200 ms p99: first as written, in time order, then again once every hour is sorted by
 * series as the scraper's keeper does when an hour ends (ADR-0023). Last, retention: that
 * history's oldest day dropped by the hour (ADR-0021), against its next day deleted in batches as
 * before.
 */
import {
  addTickTotals,
  createDataSource,
  ensureHourlyPartitions,
  HOURLY_HISTORY,
  NODE_ROLLUP_RESOLUTIONS_S,
  partitionName,
  SAMPLE_HEARTBEAT_MS,
  reapHourlyHistory,
  reapOlderThan,
  rollUpHistory,
  sortClosedHours,
  type Sql,
} from '@artemis-studio/db';

/** The bench's connection: typeorm's DataSource, as `createDataSource` makes it. */
type Database = ReturnType<typeof createDataSource>;
import { METRIC_POINTS_MAX } from '@artemis-studio/contracts';
import type { DatabaseService } from '@artemis-studio/platform';
import { createTestDatabase, insertCluster } from '@artemis-studio/testing';
import { MetricQueries } from '../services/gateway/src/metrics/metric-queries';
import { observedQueue } from '../services/scraper/src/queues/queue-observation.fixture';
import { QueueSnapshotRepository } from '../services/scraper/src/queues/queue-snapshot.repository';
import { StoredQueues } from '../services/scraper/src/queues/stored-queues';
import { percentile } from './support/percentile';
import { runBench } from './support/run-bench';

const QUEUES = Number(process.env.BENCH_QUEUES ?? 5000);
const TICKS = Number(process.env.BENCH_TICKS ?? 40);
const TIER_B_MS = 15_000;
const SHARES = [0, 0.05, 0.5, 1];
/** The chart phase: a cluster of this many queues with 7 days of history at 5% changing. */
const CHART_QUEUES = Number(process.env.BENCH_CHART_QUEUES ?? 1000);
const CHART_DAYS = Number(process.env.BENCH_CHART_DAYS ?? 7);
const CHART_READS = 20;
/** The goal (issue 32): a 7-day chart of one queue and of a whole cluster in p99 under 200 ms. */
const CHART_LIMIT_MS = 200;

interface Figures {
  share: number;
  rowsPerTick: number;
  walBytesPerTick: number;
  msPerTick: number;
  /** The caller's CPU for the tick's statement: building its parameters, sending it, reading its answer. */
  cpuMsPerTick: number;
  /** Samples a queue costs a day at this share, the heartbeat's included. */
  samplesPerQueuePerDay: number;
  bytesPerQueuePerDay: number;
}

const observation = (i: number, depth: number) =>
  observedQueue(`bench.q.${i}`, { messageCount: depth, consumerCount: 1, messagesAdded: depth });

async function walLsn(db: Sql): Promise<string> {
  return ((await db.query(`SELECT pg_current_wal_lsn()::text AS lsn`)) as { lsn: string }[])[0].lsn;
}

async function walBytesSince(db: Sql, lsn: string): Promise<number> {
  const [row] = (await db.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 AS bytes`, [
    lsn,
  ])) as { bytes: number }[];
  return row.bytes;
}

/** How a tick's queues go to the statement: by name where their figures are stored (ADR-0024), or all in full. */
type Sent = 'by name' | 'in full';

async function measure(db: Database, share: number, sent: Sent): Promise<Figures> {
  const cluster = await insertCluster(db, {
    nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
  });
  const node = cluster.nodeIds[0];
  const repository = new QueueSnapshotRepository({ whenReady: async () => db });
  const depths = Array.from({ length: QUEUES }, () => 0);
  const changing = Math.round(QUEUES * share);
  const start = Date.UTC(2026, 11, 1);
  const stored = new StoredQueues();
  let cpuMs = 0;
  const tick = async (at: number) => {
    const queues = depths.map((d, i) => observation(i, d));
    const tickAt = new Date(start + at * TIER_B_MS);
    const cpu = process.cpuUsage();
    const split = sent === 'by name' ? stored.split(queues, tickAt) : { changed: queues, stored: [] };
    await repository.sync(cluster.id, node, split.changed, tickAt, [], split.stored);
    if (sent === 'by name') stored.wrote(queues);
    const used = process.cpuUsage(cpu);
    cpuMs += (used.user + used.system) / 1000;
  };
  // The first tick samples every queue (none was known), and the second writes their first rates
  // (unknown until then): not what a running scraper pays.
  for (const at of [-1, 0]) await tick(at);
  cpuMs = 0;
  const rowsBefore = await rowsOf(db, cluster.id);
  const lsn = await walLsn(db);
  const began = performance.now();
  for (let at = 1; at <= TICKS; at++) {
    // The same queues change at every tick (the busy ones); the rest stay flat and heartbeat.
    for (let k = 0; k < changing; k++) depths[k]++;
    await tick(at);
  }
  const msPerTick = (performance.now() - began) / TICKS;
  const walBytesPerTick = (await walBytesSince(db, lsn)) / TICKS;
  const rowsPerTick = ((await rowsOf(db, cluster.id)) - rowsBefore) / TICKS;
  // A day's samples per queue: the changes, and a heartbeat for every stretch without one.
  const ticksPerDay = 86_400_000 / TIER_B_MS;
  const heartbeatsPerDay = 86_400_000 / (SAMPLE_HEARTBEAT_MS + TIER_B_MS);
  const samplesPerQueuePerDay = Math.min(ticksPerDay, ticksPerDay * share + heartbeatsPerDay * (1 - share));
  const [{ bytes }] = (await db.query(
    // The table is partitioned by the hour (ADR-0021): its size is its partitions'.
    `SELECT (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('metric_sample'))::float8
              / greatest(count(*), 1) AS bytes
       FROM metric_sample`,
  )) as { bytes: number }[];
  return {
    share,
    rowsPerTick,
    walBytesPerTick,
    msPerTick,
    cpuMsPerTick: cpuMs / TICKS,
    samplesPerQueuePerDay,
    bytesPerQueuePerDay: samplesPerQueuePerDay * bytes,
  };
}

async function rowsOf(db: Sql, clusterId: string): Promise<number> {
  const [row] = (await db.query(
    `SELECT (SELECT count(*) FROM metric_sample WHERE cluster_id = $1)
          + (SELECT count(*) FROM queue_tick WHERE cluster_id = $1)
          + (SELECT count(*) FROM node_rollup WHERE cluster_id = $1) AS n`,
    [clusterId],
  )) as { n: string }[];
  return Number(row.n);
}

/**
 * Writes `CHART_DAYS` of history as the scraper would have at 5% changing (the same queues busy,
 * the rest heartbeating) straight into the tables, and times the gateway's own chart queries.
 */
async function measureCharts(db: Database, atFivePercent: Figures): Promise<void> {
  const cluster = await insertCluster(db, {
    nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
  });
  const node = cluster.nodeIds[0];
  const ticks = (CHART_DAYS * 86_400_000) / TIER_B_MS;
  const busy = Math.round(CHART_QUEUES * 0.05);
  const heartbeatTicks = SAMPLE_HEARTBEAT_MS / TIER_B_MS;
  const to = Math.floor(Date.now() / 60_000) * 60_000;
  const from = to - CHART_DAYS * 86_400_000;
  const began = performance.now();
  // The hours' partitions a scraper keeping a week would have made (ADR-0021).
  for (const history of [HOURLY_HISTORY.metric_sample, HOURLY_HISTORY.queue_tick])
    await ensureHourlyPartitions(db, history, new Date(from), new Date(to + 3_600_000));
  await db.query(
    `INSERT INTO queue_tick (ticked_at, cluster_id, node_id)
     SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => t * $4::float8 / 1000), $2, $3
       FROM generate_series(0, $5 - 1) t`,
    [from, cluster.id, node, TIER_B_MS, ticks],
  );
  // Busy queues change at every tick; the others are sampled at every heartbeat.
  await db.query(
    `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                messages_acknowledged, consumer_count, delivering_count)
     SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => t * $4::float8 / 1000), $2, $3, 'bench.q.' || q,
            (t + q) % 500, t * 10, t * 10 - (t + q) % 500, 1, 0
       FROM generate_series(0, $5 - 1) t, generate_series(0, $6 - 1) q
      WHERE q < $7 OR t % $8 = q % $8
      ORDER BY t`,
    [from, cluster.id, node, TIER_B_MS, ticks, CHART_QUEUES, busy, heartbeatTicks],
  );
  // The ticks' totals and the rollups, as the scraper writes them beside the samples (ADR-0020).
  await addTickTotals(db, cluster.id);
  for (const resolution of NODE_ROLLUP_RESOLUTIONS_S) await rollUpHistory(db, resolution, cluster.id);
  await db.query(`ANALYZE metric_sample`);
  await db.query(`ANALYZE queue_tick`);
  await db.query(`ANALYZE node_rollup`);
  const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM metric_sample WHERE cluster_id = $1`, [
    cluster.id,
  ])) as { n: number }[];
  console.log(
    `chart reads: ${CHART_QUEUES} queues, ${CHART_DAYS} days of history at 5% changing (${n} samples, written in ${((performance.now() - began) / 1000).toFixed(0)} s); limit ${CHART_LIMIT_MS} ms p99`,
  );
  const queries = new MetricQueries({ forRequest: async () => db } as unknown as DatabaseService);
  await readCharts(queries, cluster.id, to, 'as written, in time order');
  // What the scraper's keeper does to each hour once it has ended (ADR-0023).
  const size = async () =>
    Number(
      (
        (await db.query(`SELECT pg_total_relation_size(i.inhrelid)::bigint AS b FROM pg_inherits i
                          WHERE i.inhparent = 'metric_sample'::regclass`)) as { b: string }[]
      ).reduce((sum, r) => sum + Number(r.b), 0),
    );
  const [bytesBefore, lsn, start] = [await size(), await walLsn(db), performance.now()];
  const [now, keepFrom] = [new Date(to + 2 * 3_600_000), new Date(from)];
  const hours = await sortClosedHours(db, HOURLY_HISTORY.metric_sample, now, keepFrom);
  await sortClosedHours(db, HOURLY_HISTORY.queue_tick, now, keepFrom);
  const [ms, walBytes, bytesAfter] = [performance.now() - start, await walBytesSince(db, lsn), await size()];
  await db.query(`ANALYZE metric_sample`);
  await db.query(`ANALYZE queue_tick`);
  // Against what the ticks at 5% logged (first part), both per queue and hour.
  const ticksWal = (atFivePercent.walBytesPerTick * (3_600_000 / TIER_B_MS)) / QUEUES;
  const sortWal = walBytes / hours / CHART_QUEUES;
  console.log(
    `sorted ${hours} hours of samples and ticks by series in ${(ms / 1000).toFixed(1)} s (${(ms / hours).toFixed(0)} ms an hour); ` +
      `WAL ${(walBytes / 1024 / hours).toFixed(0)} KB an hour, ${((100 * sortWal) / ticksWal).toFixed(0)}% more than the ticks at 5% logged; ` +
      `samples' storage ${(bytesBefore / 1024 / 1024).toFixed(1)} MB before, ${(bytesAfter / 1024 / 1024).toFixed(1)} MB after`,
  );
  await readCharts(queries, cluster.id, to, 'each hour sorted by series (ADR-0023)');
  await measureRetention(db, from);
}

/** The gateway's series queries over an hour, a day and the whole history, each read CHART_READS times. */
async function readCharts(
  queries: MetricQueries,
  clusterId: string,
  to: number,
  history: string,
): Promise<void> {
  const range = (days: number) => {
    const span = days * 86_400_000;
    return { from: new Date(to - span), to: new Date(to), stepMs: Math.ceil(span / METRIC_POINTS_MAX) };
  };
  console.log(`history ${history}`);
  console.log('chart | days | p50 ms | p99 ms (of reads) | p99 / limit');
  for (const days of [1 / 24, 1, CHART_DAYS])
    for (const [label, queue] of [
      ['a busy queue', 'bench.q.0'],
      ['a flat queue', `bench.q.${CHART_QUEUES - 1}`],
      ['the whole cluster', null],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < CHART_READS; i++) {
        const start = performance.now();
        await queries.series(clusterId, queue, range(days));
        times.push(performance.now() - start);
        // Far past the limit: one more read says nothing new, and twenty would take minutes.
        if (times[0] > 10 * CHART_LIMIT_MS) break;
      }
      times.sort((a, b) => a - b);
      const p99 = percentile(times, 99);
      console.log(
        `${label} | ${+days.toFixed(2)} | ${times[Math.floor(times.length / 2)].toFixed(0)} | ${p99.toFixed(0)} (${times.length}) | ${(p99 / CHART_LIMIT_MS).toFixed(2)}`,
      );
    }
}

/**
 * Retention of the same history's samples (ADR-0021): its oldest day removed by dropping its
 * hours' partitions, against its next day's rows deleted in batches, as retention did before.
 */
async function measureRetention(db: Database, from: number): Promise<void> {
  const [day, hour] = [86_400_000, 3_600_000];
  // The first whole hour a day on: the hours before it are the day dropped.
  const dayEnd = Math.ceil((from + day) / hour) * hour;
  const timed = async (remove: () => Promise<number>) => {
    const lsn = await walLsn(db);
    const start = performance.now();
    const rows = await remove();
    return { rows, ms: performance.now() - start, walBytes: await walBytesSince(db, lsn) };
  };
  const [{ n: dayRows }] = (await db.query(
    `SELECT count(*)::int AS n FROM metric_sample WHERE sampled_at < $1`,
    [new Date(dayEnd)],
  )) as { n: number }[];
  const dropped = await timed(async () => {
    // A cut-off half an hour into an hour, as an hourly run's falls: that hour is kept whole.
    const reaped = await reapHourlyHistory(
      db,
      HOURLY_HISTORY.metric_sample,
      new Date(dayEnd + hour / 2),
      10_000,
    );
    if (reaped.rows) throw new Error(`${reaped.rows} rows deleted one by one: only whole hours should go`);
    return dayRows;
  });
  const deleted = await timed(async () => {
    let rows = 0;
    for (let at = dayEnd; at < dayEnd + day; at += hour)
      rows += await reapOlderThan(
        db,
        { table: partitionName('metric_sample', new Date(at)), age: 'sampled_at' },
        new Date(dayEnd + day),
        10_000,
      );
    return rows;
  });
  console.log('retention of a day of samples | rows | ms | WAL KB | ratio of ms | ratio of WAL');
  for (const [label, figures] of [
    ['dropping its hours', dropped],
    ['deleting in batches (baseline)', deleted],
  ] as const)
    console.log(
      `${label} | ${figures.rows} | ${figures.ms.toFixed(0)} | ${(figures.walBytes / 1024).toFixed(0)} | ${(deleted.ms / figures.ms).toFixed(1)}x less | ${(deleted.walBytes / figures.walBytes).toFixed(1)}x less`,
    );
}

async function main(): Promise<void> {
  const database = await createTestDatabase({ migrated: true });
  const db = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
  try {
    const figures: Figures[] = [];
    const inFull: Figures[] = [];
    for (const share of SHARES) {
      figures.push(await measure(db, share, 'by name'));
      inFull.push(await measure(db, share, 'in full'));
    }
    const baseline = figures.find((f) => f.share === 1)!;
    console.log(
      `queue history, ${QUEUES} queues on one node, ${TICKS} tier-B ticks of ${TIER_B_MS / 1000} s each; baseline: 100% changing (every queue sampled every tick, as before ADR-0019)`,
    );
    console.log(
      'changing | rows/tick | ratio | WAL KB/tick | ratio | ms/tick | caller CPU ms/tick: by name / all in full | ratio | samples/queue/day | KB/queue/day | ratio',
    );
    for (const [i, f] of figures.entries())
      console.log(
        [
          `${(f.share * 100).toFixed(0)}%`,
          f.rowsPerTick.toFixed(0),
          `${(baseline.rowsPerTick / f.rowsPerTick).toFixed(1)}x fewer`,
          (f.walBytesPerTick / 1024).toFixed(0),
          `${(baseline.walBytesPerTick / f.walBytesPerTick).toFixed(1)}x less`,
          f.msPerTick.toFixed(0),
          `${f.cpuMsPerTick.toFixed(1)} / ${inFull[i].cpuMsPerTick.toFixed(1)} (${inFull[i].msPerTick.toFixed(0)} ms/tick)`,
          `${(inFull[i].cpuMsPerTick / f.cpuMsPerTick).toFixed(1)}x less`,
          f.samplesPerQueuePerDay.toFixed(0),
          (f.bytesPerQueuePerDay / 1024).toFixed(1),
          `${(baseline.bytesPerQueuePerDay / f.bytesPerQueuePerDay).toFixed(1)}x less`,
        ].join(' | '),
      );
    await measureCharts(
      db,
      figures.find((f) => f.share === 0.05)!,
    );
  } finally {
    await db.destroy();
    await database.drop();
  }
}

runBench(__filename, main);
