/**
 * Alerting (issue 29): `npm run bench -- alerting`
 *
 * 1. 1,000 rules over a cluster of 10,000 queues (600 on one queue each, 380 on a family of a hundred,
 *    20 on every queue): the CPU of one evaluation (the facts read back,
 *    every rule's readings, the steps, their write) against the CPU of the tier-B scrape of the
 *    same tick (the bulk read, its parse and the snapshot write), measured in the same run.
 *    Goal: under 10% of the scrape's.
 * 2. From the tick that crosses a threshold to the alert received at a real Alertmanager, and the
 *    same for its resolve: p50 and p99 over many crossings. Goal: p99 under 1 s.
 *
 * The evaluation and the courier are the scraper's own classes, in this process.
 *
 * `BENCH_BASELINES=1` makes every rule a baseline rule (issue 61, item 2: `queue-depth-baseline`,
 * in the same mix of one queue, a family and every queue), over two weeks of hours written for
 * every queue: the evaluation then also reads the bands, once at the first tick of the hour.
 */
import { createDataSource, QueueHourQueries, rowsOf } from '@artemis-studio/db';
import {
  artemis,
  brokerCluster,
  createTestDatabase,
  insertCluster,
  startAlertmanager,
  startBroker,
} from '@artemis-studio/testing';
import axios from 'axios';
import { Agent } from 'node:http';
import { AddressSampleRepository } from '../services/scraper/src/addresses/address-sample.repository';
import { AddressSampler } from '../services/scraper/src/addresses/address-sampler';
import { AlertCourier } from '../services/scraper/src/alerting/delivery/alert-courier';
import { AlertDeliveryRepository } from '../services/scraper/src/alerting/delivery/alert-delivery.repository';
import { ALERT_CHANNELS } from '../services/scraper/src/alerting/delivery/channels/alert-channels';
import { AlertEvaluation } from '../services/scraper/src/alerting/evaluation/alert-evaluation';
import { AlertEvaluationRepository } from '../services/scraper/src/alerting/evaluation/alert-evaluation.repository';
import { TIER_B_REQUESTS, readTierB, type NodeTierB } from '../services/scraper/src/polling/tier-b';
import { CallLimiter } from '../services/scraper/src/jolokia/call-limiter';
import { JolokiaClient, type JolokiaTarget } from '../services/scraper/src/jolokia/jolokia-client';
import { QueueSnapshotRepository } from '../services/scraper/src/queues/queue-snapshot.repository';
import { benchQueueName, fillBenchQueues } from './support/bench-queues';
import { runBench } from './support/run-bench';

const QUEUES = Number(process.env.BENCH_QUEUES ?? 10_000);
const RULES = Number(process.env.BENCH_RULES ?? 1_000);
const TICKS = Number(process.env.BENCH_TICKS ?? 10);
const CROSSINGS = Number(process.env.BENCH_CROSSINGS ?? 40);
const TIER_MS = 5_000;
const BASELINES = process.env.BENCH_BASELINES === '1';
const HOUR_MS = 3_600_000;

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const median = (values: number[]) => percentile(values, 50);

async function main(): Promise<void> {
  const broker = await startBroker('bench');
  const node = broker.nodes[0];
  await fillBenchQueues(broker, QUEUES);
  const jolokia = new JolokiaClient(
    new CallLimiter(1e9),
    axios.create({ httpAgent: new Agent({ keepAlive: true }), timeout: 120_000, maxContentLength: Infinity }),
  );
  const target: JolokiaTarget = {
    nodeKey: 'bench',
    jolokiaUrl: node.jolokiaUrl,
    origin: 'http://127.0.0.1',
    auth: { username: broker.user, password: broker.password },
  };
  const database = await createTestDatabase({ migrated: true });
  const db = await createDataSource({ url: database.url, poolSize: 4 }).initialize();
  const alertmanager = await startAlertmanager();
  try {
    const cluster = await insertCluster(db, brokerCluster(broker, 'bench'));
    const clusterTarget = {
      id: cluster.id,
      name: 'bench',
      nodes: [{ id: cluster.nodeIds[0], name: node.name, jolokiaUrl: node.jolokiaUrl, amqpUrl: null }],
    };
    const snapshots = new QueueSnapshotRepository({ whenReady: async () => db });
    const addressSamples = new AddressSampleRepository({ whenReady: async () => db });
    const store = new AlertEvaluationRepository(db);
    const transitions: { state: string; subject: string }[] = [];
    const evaluation = new AlertEvaluation({
      store,
      committed: (_, t) => {
        for (const { state, alert } of t) transitions.push({ state, subject: alert.subject });
        courier.kick();
      },
      intervals: () => ({ tierAMs: TIER_MS, tierBMs: TIER_MS }),
      studioFacts: () => Promise.reject(new Error('the bench holds no Studio rule')),
      addressHistory: (clusterId, since, until) => addressSamples.sizesBetween(clusterId, since, until),
      diskHistory: async () => [],
      queueBaselines: (clusterId, atMs) => new QueueHourQueries(db).baselines(clusterId, atMs),
      log: { warn: (message) => console.warn(message) },
    });
    const [{ id: receiverId }] = await rowsOf<{ id: string }>(
      db,
      `INSERT INTO alert_receiver (cluster_id, name, kind, url, min_severity)
       VALUES ($1, 'alertmanager', 'alertmanager', $2, 'info') RETURNING id`,
      [cluster.id, alertmanager.url],
    );
    const receiver = {
      id: receiverId,
      kind: 'alertmanager' as const,
      url: alertmanager.url,
      secret: null,
      email: null,
    };
    const courier = new AlertCourier(
      cluster.id,
      {
        deliveries: new AlertDeliveryRepository(db),
        receivers: async () => new Map([[receiverId, receiver]]),
        channels: ALERT_CHANNELS,
        publish: async () => undefined,
        post: fetch,
        smtpCa: null,
        delivered: () => undefined,
        log: { warn: (message) => console.warn(message) },
      },
      60_000,
    );
    courier.start();

    /** One tier-B scrape of the node, as the poller does it: what the evaluation is held against. */
    let observed: NodeTierB[] = [];
    const addressSampler = new AddressSampler([]);
    const scrape = async () => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const {
        queues: { queues, unreadable },
        addresses,
      } = readTierB(await jolokia.bulk(target, TIER_B_REQUESTS));
      const unread = unreadable.map((q) => q.name);
      const at = new Date();
      await snapshots.sync(cluster.id, cluster.nodeIds[0], queues, at, unread);
      const plan = addressSampler.plan(cluster.nodeIds[0], addresses, at);
      await addressSamples.record(cluster.id, cluster.nodeIds[0], plan.rows, at);
      plan.written();
      observed = [{ nodeId: cluster.nodeIds[0], queues, unread, addresses }];
      return { cpuMs: cpuMs(cpu), wallMs: performance.now() - started, queues: queues.length };
    };
    const evaluate = async () => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      await evaluation.afterQueues(clusterTarget, new Date(), observed);
      return { cpuMs: cpuMs(cpu), wallMs: performance.now() - started };
    };

    // Rules as a team writes them: most on one queue by name, many on a family of a hundred queues
    // by prefix, a few cluster-wide defaults on every queue (each of those reads all 10,000).
    const rules = Array.from({ length: RULES }, (_, i) => {
      if (i % 50 === 0)
        return BASELINES
          ? { kind: 'queue-depth-baseline', subjects: '*', threshold: 5 }
          : { kind: 'queue-oldest-message', subjects: '*', threshold: 3600 };
      if (i % 10 < 6)
        return {
          kind: BASELINES ? 'queue-depth-baseline' : 'queue-depth',
          subjects: benchQueueName((i * 7) % QUEUES),
          threshold: BASELINES ? 5 : 1000,
        };
      return {
        kind: BASELINES ? 'queue-depth-baseline' : 'queue-no-consumers',
        subjects: `bench.q.${String(i % 100).padStart(3, '0')}*`,
        threshold: BASELINES ? 5 : null,
      };
    });
    if (BASELINES) {
      // Each queue's hours at the twelve the band reads (a peak of 10, so no alert fires), and one
      // fifteen days ago: two weeks of history as the evaluation reads it, for every queue.
      const now = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
      const hours = [now - 15 * 24 * HOUR_MS];
      for (let week = 1; week <= 4; week++)
        for (const side of [-1, 0, 1]) hours.push(now - week * 7 * 24 * HOUR_MS + side * HOUR_MS);
      await rowsOf(
        db,
        `INSERT INTO queue_hour (cluster_id, queue, hour, depth_peak)
         SELECT $1, 'bench.q.' || lpad(q::text, 5, '0'), h, 10
           FROM generate_series(0, $2::int - 1) q, unnest($3::timestamptz[]) h
         ON CONFLICT DO NOTHING`,
        [cluster.id, QUEUES, hours.map((h) => new Date(h))],
      );
    }
    await rowsOf(
      db,
      `INSERT INTO alert_rule (cluster_id, name, kind, subjects, threshold, for_seconds, severity)
       SELECT $1, 'rule ' || t.i, t.kind, t.subjects, t.threshold, 0, 'warning'
         FROM unnest($2::int[], $3::text[], $4::text[], $5::float8[]) AS t(i, kind, subjects, threshold)`,
      [
        cluster.id,
        rules.map((_, i) => i),
        rules.map((r) => r.kind),
        rules.map((r) => r.subjects),
        rules.map((r) => r.threshold),
      ],
    );

    await scrape(); // the first tick writes every snapshot; the next ones are the steady state
    await evaluate();
    const ticks: { scrape: number; evaluation: number; evaluationWall: number; scrapeWall: number }[] = [];
    for (let i = 0; i < TICKS; i++) {
      const s = await scrape();
      const e = await evaluate();
      ticks.push({ scrape: s.cpuMs, evaluation: e.cpuMs, evaluationWall: e.wallMs, scrapeWall: s.wallMs });
    }
    const ratios = ticks.map((t) => t.evaluation / t.scrape);
    // The bands are read at the hour's first tick only: measured on their own, once.
    let bandRead = '';
    if (BASELINES) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const bands = await new QueueHourQueries(db).baselines(cluster.id, Date.now());
      const known = [...bands.values()].filter((b) => b.band !== null).length;
      bandRead = `bands read at the hour's first tick: ${bands.size} queues (${known} with a band), ${(performance.now() - started).toFixed(0)} ms wall, ${cpuMs(cpu).toFixed(0)} ms CPU`;
    }

    // Crossings: one rule's threshold moved past the queue's depth (0) and back, a tick each way.
    const [{ id: crossingRule }] = await rowsOf<{ id: string }>(
      db,
      `INSERT INTO alert_rule (cluster_id, name, kind, subjects, threshold, for_seconds, severity)
       VALUES ($1, 'crossing', 'queue-depth', $2, 1, 0, 'critical') RETURNING id`,
      [cluster.id, benchQueueName(1)],
    );
    const held = async (state: 'active' | 'gone') => {
      const alerts = await alertmanager.alerts();
      const alert = alerts.find((a) => a.labels.alertname === 'crossing');
      return state === 'active'
        ? alert?.status.state === 'active'
        : !alert || alert.status.state !== 'active';
    };
    const latencies: number[] = [];
    for (let i = 0; i < CROSSINGS; i++) {
      const firing = i % 2 === 0;
      await rowsOf(db, `UPDATE alert_rule SET threshold = $2 WHERE id = $1`, [crossingRule, firing ? -1 : 1]);
      // A tick as the poller runs it: the scrape, then the evaluation of what it read; measured from
      // the evaluation's start.
      await scrape();
      const tick = performance.now();
      await evaluation.afterQueues(clusterTarget, new Date(), observed);
      for (;;) {
        if (await held(firing ? 'active' : 'gone')) break;
        if (performance.now() - tick > 10_000) {
          const seen = (await alertmanager.alerts()).filter((a) => a.labels.alertname === 'crossing');
          const owed = await rowsOf(
            db,
            `SELECT d.id, d.transition, d.status, d.attempts, d.last_error, a.state, a.fired_at, a.ended_at
               FROM alert_delivery d JOIN alert a ON a.id = d.alert_id
              WHERE a.rule_id = $1 AND d.receiver_id IS NOT NULL ORDER BY d.id DESC LIMIT 4`,
            [crossingRule],
          );
          throw new Error(`Alertmanager never saw crossing ${i}: ${JSON.stringify({ seen, owed })}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      latencies.push(performance.now() - tick);
    }
    courier.stop();
    await courier.idle();

    console.log(
      `\nAlerting: ${RULES} ${BASELINES ? 'baseline ' : ''}rules over ${ticks.length ? (await scrape()).queues : 0} queues on one node (Artemis 2.40.0, ${new Date().toISOString()})\n`,
    );
    console.table(
      ticks.map((t, i) => ({
        tick: i + 1,
        'scrape CPU ms': t.scrape.toFixed(0),
        'scrape wall ms': t.scrapeWall.toFixed(0),
        'evaluation CPU ms': t.evaluation.toFixed(0),
        'evaluation wall ms': t.evaluationWall.toFixed(0),
        'evaluation / scrape': ratios[i].toFixed(3),
      })),
    );
    console.log(
      `evaluation CPU against the scrape's: median ${median(ratios).toFixed(3)} (spread ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}); goal under 0.10: ratio to the limit ${(median(ratios) / 0.1).toFixed(2)}`,
    );
    console.log(
      `tick to Alertmanager, ${latencies.length} crossings (fire and resolve): p50 ${median(latencies).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms; goal p99 under 1000 ms: ratio to the limit ${(percentile(latencies, 99) / 1000).toFixed(2)}`,
    );
    if (bandRead) console.log(bandRead);
    console.log(`transitions committed: ${transitions.length}`);
  } finally {
    await alertmanager.stop();
    await db.destroy();
    await database.drop();
    if (!process.env.BENCH_KEEP_BROKER) await artemis('stop', 'bench');
  }
}

runBench(__filename, main);
