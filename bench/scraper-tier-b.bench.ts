/**
 * Tier-B tick against a real broker with many queues (issue 3):
 *   npm run bench -- scraper-tier-b          (BENCH_QUEUES=5000 by default)
 * Our way (one bulk wildcard read per node, one statement per tick) against the
 * one-request-per-queue approach, measured in the same run on the same broker and database.
 */
import { createDataSource } from '@artemis-studio/db';
import {
  artemis,
  brokerCluster,
  createTestDatabase,
  insertCluster,
  startBroker,
} from '@artemis-studio/testing';
import axios from 'axios';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { CallLimiter } from '../services/scraper/src/jolokia/call-limiter';
import {
  JolokiaClient,
  type JolokiaRequest,
  type JolokiaTarget,
} from '../services/scraper/src/jolokia/jolokia-client';
import { QueueSnapshotRepository } from '../services/scraper/src/queues/queue-snapshot.repository';
import { fillBenchQueues } from './support/bench-queues';
import { cpuMsOf } from './support/process-stats';
import {
  QUEUE_REQUEST,
  parseQueues,
  type QueueObservation,
} from '../services/scraper/src/queues/queue-observation';
import { runBench } from './support/run-bench';
import { ADDRESS_REQUEST } from '../services/scraper/src/addresses/address-observation';
import { TIER_B_REQUESTS, readTierB } from '../services/scraper/src/polling/tier-b';

const QUEUES = Number(process.env.BENCH_QUEUES ?? 5000);
const IDLE_TICKS = 5;
/** Idle ticks read with and without the cluster connections, alternated (issue 59). */
const LINK_TICKS = Number(process.env.BENCH_LINK_TICKS ?? 7);
const CHANGED = 10;
const PREFIX = 'bench.q.';

interface Tick {
  label: string;
  wallMs: number;
  httpCalls: number;
  upsertMs: number;
  cpuMs: number;
  brokerCpuMs: number;
  changed: number;
}

async function main(): Promise<void> {
  const broker = await startBroker('bench');
  const node = broker.nodes[0];
  const brokerPid = Number(readFileSync(join(node.home, 'data', 'artemis.pid'), 'utf8').trim());
  const brokerCpuMs = () => cpuMsOf(brokerPid);

  let httpCalls = 0;
  const http = axios.create({
    httpAgent: new Agent({ keepAlive: true, maxSockets: 4 }),
    timeout: 120_000,
    maxContentLength: Infinity,
  });
  http.interceptors.request.use((config) => {
    httpCalls++;
    return config;
  });
  const jolokia = new JolokiaClient(new CallLimiter(1e9), http);
  const target: JolokiaTarget = {
    nodeKey: 'bench',
    jolokiaUrl: node.jolokiaUrl,
    origin: 'http://127.0.0.1',
    auth: { username: broker.user, password: broker.password },
  };

  await fillBenchQueues(broker, QUEUES);

  const database = await createTestDatabase({ migrated: true });
  const dataSource = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
  const cluster = await insertCluster(dataSource, brokerCluster(broker, 'bench'));
  const repository = new QueueSnapshotRepository({ whenReady: async () => dataSource });

  const measure = async (label: string, observe: () => Promise<QueueObservation[]>): Promise<Tick> => {
    const calls = httpCalls;
    const cpu = process.cpuUsage();
    const brokerCpu = brokerCpuMs();
    const started = performance.now();
    const queues = await observe();
    const upsertStarted = performance.now();
    const result = await repository.sync(cluster.id, cluster.nodeIds[0], queues, new Date());
    if (!result) throw new Error('the bench cluster was deleted during the run');
    const ended = performance.now();
    const used = process.cpuUsage(cpu);
    return {
      label,
      wallMs: ended - started,
      httpCalls: httpCalls - calls,
      upsertMs: ended - upsertStarted,
      cpuMs: (used.user + used.system) / 1000,
      brokerCpuMs: brokerCpuMs() - brokerCpu,
      changed: result.changed + result.removed,
    };
  };

  const bulk = async () => parseQueues(await jolokia.bulk(target, [QUEUE_REQUEST])).queues;
  const names = Object.keys(
    ((await jolokia.bulk(target, [QUEUE_REQUEST]))[0].value ?? {}) as Record<string, unknown>,
  );
  const perQueue = async () => {
    const found: QueueObservation[] = [];
    let next = 0;
    const worker = async () => {
      while (next < names.length) {
        const mbean = names[next++];
        const request: JolokiaRequest = {
          type: 'read',
          mbean,
          attribute: (QUEUE_REQUEST as { attribute: string[] }).attribute,
        };
        const [answer] = await jolokia.bulk(target, [request]);
        found.push(...parseQueues([{ status: 200, value: { [mbean]: answer.value } }]).queues);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return found;
  };

  const ticks: Tick[] = [];
  ticks.push(await measure('bulk, first tick (all new)', bulk));
  for (let i = 0; i < IDLE_TICKS; i++) ticks.push(await measure(`bulk, idle tick ${i + 1}`, bulk));
  const paused = names.filter((n) => n.includes(`queue="${PREFIX}`)).slice(0, CHANGED);
  await jolokia.bulk(
    target,
    paused.map((mbean) => ({ type: 'exec', mbean, operation: 'pause()', arguments: [] })),
  );
  ticks.push(await measure(`bulk, ${CHANGED} queues paused`, bulk));
  await jolokia.bulk(
    target,
    paused.map((mbean) => ({ type: 'exec', mbean, operation: 'resume()', arguments: [] })),
  );
  ticks.push(await measure(`bulk, ${CHANGED} queues resumed`, bulk));
  // What reading the links adds: the tier-B call as it was (queues and addresses) and as it is
  // (and each cluster connection), alternated so both see the same machine.
  const withoutLinks = async () =>
    parseQueues([(await jolokia.bulk(target, [QUEUE_REQUEST, ADDRESS_REQUEST]))[0]]).queues;
  const withLinks = async () => readTierB(await jolokia.bulk(target, TIER_B_REQUESTS)).queues.queues;
  for (let i = 0; i < LINK_TICKS; i++) {
    ticks.push(await measure(`without links, idle tick ${i + 1}`, withoutLinks));
    ticks.push(await measure(`with links, idle tick ${i + 1}`, withLinks));
  }
  for (let i = 0; i < 2; i++) ticks.push(await measure(`per-queue baseline, idle tick ${i + 1}`, perQueue));

  console.log(
    `\nTier-B tick, ${names.length} queues on one node (Artemis 2.40.0, ${new Date().toISOString()})\n`,
  );
  console.table(
    ticks.map((t) => ({
      tick: t.label,
      'wall ms': t.wallMs.toFixed(0),
      'HTTP calls': t.httpCalls,
      'upsert ms': t.upsertMs.toFixed(0),
      'studio CPU ms': t.cpuMs.toFixed(0),
      'broker CPU ms': t.brokerCpuMs.toFixed(0),
      'changed queues': t.changed,
    })),
  );
  const idle = ticks.filter((t) => t.label.startsWith('bulk, idle'));
  const base = ticks.filter((t) => t.label.startsWith('per-queue'));
  const mean = (xs: Tick[], f: (t: Tick) => number) => xs.reduce((a, t) => a + f(t), 0) / xs.length;
  console.log(
    `idle tick, bulk vs per-queue: wall ${mean(idle, (t) => t.wallMs).toFixed(0)} ms vs ${mean(base, (t) => t.wallMs).toFixed(0)} ms` +
      ` (x${(mean(base, (t) => t.wallMs) / mean(idle, (t) => t.wallMs)).toFixed(1)}),` +
      ` HTTP calls ${mean(idle, (t) => t.httpCalls)} vs ${mean(base, (t) => t.httpCalls)},` +
      ` broker CPU ${mean(idle, (t) => t.brokerCpuMs).toFixed(0)} ms vs ${mean(base, (t) => t.brokerCpuMs).toFixed(0)} ms,` +
      ` studio CPU ${mean(idle, (t) => t.cpuMs).toFixed(0)} ms vs ${mean(base, (t) => t.cpuMs).toFixed(0)} ms`,
  );

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const pairs = ticks
    .filter((t) => t.label.startsWith('with links'))
    .map((t, i) => t.wallMs / ticks.filter((u) => u.label.startsWith('without links'))[i].wallMs);
  const wall = (prefix: string) =>
    median(ticks.filter((t) => t.label.startsWith(prefix)).map((t) => t.wallMs));
  console.log(
    `idle tick with the links vs without: wall ${wall('with links').toFixed(0)} ms vs ${wall('without links').toFixed(0)} ms (medians),` +
      ` ratio median ${median(pairs).toFixed(3)}, spread ${Math.min(...pairs).toFixed(3)} to ${Math.max(...pairs).toFixed(3)} (goal: under 1.10)`,
  );

  await dataSource.destroy();
  await database.drop();
  if (!process.env.BENCH_KEEP_BROKER) await artemis('stop', 'bench');
}

runBench(__filename, main);
