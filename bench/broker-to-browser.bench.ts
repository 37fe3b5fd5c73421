/**
 * Broker notification to SSE frame, end to end (issue 6):
 *   npm run bench -- broker-to-browser          (BENCH_EVENTS_PER_SECOND=1000, BENCH_SECONDS=20)
 *   (BENCH_IDLE_SECONDS=10: the services watched at rest first, their CPU a second printed)
 * A real broker (the `bench` profile), the notifier, the event store and the gateway as their own
 * processes on a private NATS server, and SSE clients in a separate load process
 * (bench/support/sse-load.mjs) following the cluster's `events` topic. Receivers attach and detach
 * on the broker at a steady pace, which makes it send consumer and session notifications; each
 * `events` frame is timed from `brokerTs` (the broker's `_AMQ_NotifTimestamp`, same host clock) to
 * its arrival. The limit, in the same run: a bare AMQP receiver on `activemq.notifications`, timed
 * from the same timestamp to its arrival, with no normalising, stream, database or gateway.
 */
import { NatsBus } from '@artemis-studio/bus';
import { buckets } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  artemis,
  brokerCluster,
  createTestDatabase,
  declareLive,
  insertCluster,
  signIn,
  spawnService,
  startBroker,
  startPrivateNats,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Connection, ReceiverEvents, type EventContext, type Receiver } from 'rhea-promise';
import { batchStats } from './support/event-store-stats';
import { cpuMsOf, cpuSplitOf } from './support/process-stats';
import { startSseLoad } from './support/sse-load-process';
import { runBench } from './support/run-bench';

const EVENTS_PER_SECOND = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
const CONNECTIONS = 10;
/** How long the services are watched at rest, before any load. */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const TICK_MS = 20;
/** How long each receiver stays attached before it detaches. */
const HOLD_MS = 500;

const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  progress('starting the broker, NATS, the database and the services');
  const broker = await startBroker('bench');
  const node = broker.nodes[0];
  const { hostname, port } = new URL(node.amqpUrl);
  const amqp = () =>
    new Connection({
      host: hostname,
      port: Number(port),
      username: broker.user,
      password: broker.password,
      reconnect: false,
    }).open();

  const nats = await startPrivateNats();
  const database = await createTestDatabase({ migrated: true });
  process.env.STUDIO_TEST_DATABASE_URL = database.url;
  const dataSource = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
  const cluster = await insertCluster(dataSource, brokerCluster(broker, 'bench'));
  const bus = new NatsBus({ servers: nats.url, name: 'e2e-bench', log: { warn() {}, error() {} } });
  // The scraper's part, said directly: it is not on this path, and its polling would only add load.
  await declareLive(bus, cluster.id, broker);
  // The lease TTL as deployed (15 s): a shorter one renews five times as often, at rest and under
  // load, and the figures per event would count that too.
  const env = { NATS_URL: nats.url };
  const services = {
    'event store': await spawnService('event-store', 18681, env),
    notifier: await spawnService('notifier', 18682, env),
    gateway: await spawnService('gateway', 18683, env),
  };
  const capabilities = await bus.kv(buckets.capabilities);
  while ((await capabilities.get(cluster.id))?.value.status !== 'AVAILABLE') await sleep(100);

  // The limit: a bare receiver of the broker's notifications, timed from the same timestamp.
  const bareLatencies: number[] = [];
  const watcher = await amqp();
  const bare = await watcher.createReceiver({
    source: { address: 'activemq.notifications' },
    credit_window: 1000,
  });
  let measuring = false;
  bare.on(ReceiverEvents.message, (ctx: EventContext) => {
    const sent = Number(ctx.message?.application_properties?._AMQ_NotifTimestamp);
    if (measuring && sent) bareLatencies.push(Date.now() - sent);
  });

  const load = await startSseLoad(
    `${services.gateway.url}/api/v1/stream?clusterId=${cluster.id}&topics=events`,
    CLIENTS,
    'events',
    (await signIn(services.gateway.url)).headers,
  );

  // What each service spends doing nothing (leases, heartbeats, timers), so the figures per event
  // below can be read as rest plus work: at 1,000/s, 10 ms/s at rest is 10 ms per 1,000 events.
  progress(`at rest for ${IDLE_SECONDS} s`);
  const idleBefore = Object.fromEntries(Object.entries(services).map(([name, s]) => [name, cpuMsOf(s.pid)]));
  await sleep(IDLE_SECONDS * 1000);
  const atRest = Object.entries(services).map(
    ([name, s]) => `${name} ${((cpuMsOf(s.pid) - idleBefore[name]) / IDLE_SECONDS).toFixed(1)}`,
  );

  // How many notifications one attach and detach makes, so the pace can be set for the target rate.
  const connections = await Promise.all(Array.from({ length: CONNECTIONS }, () => amqp()));
  const queue = `bench.e2e.${randomUUID()}`;
  const cycle = async (connection: Connection) => {
    const receiver: Receiver = await connection.createReceiver({
      source: { address: queue, capabilities: ['queue'] },
    });
    await sleep(HOLD_MS);
    await receiver.close();
  };
  progress('calibrating');
  measuring = true;
  await Promise.all(Array.from({ length: 50 }, (_, i) => cycle(connections[i % CONNECTIONS])));
  await sleep(1000);
  measuring = false;
  const perCycle = bareLatencies.length / 50;
  bareLatencies.length = 0;
  await load.report();
  const cyclesPerTick = (EVENTS_PER_SECOND / perCycle) * (TICK_MS / 1000);

  progress(`${perCycle} notifications per attach and detach; running ${SECONDS} s at ${EVENTS_PER_SECOND}/s`);
  const cpuBefore = Object.fromEntries(
    Object.entries(services).map(([name, s]) => [name, cpuSplitOf(s.pid)]),
  );
  const brokerPid = Number(readFileSync(join(node.home, 'data', 'artemis.pid'), 'utf8').trim());
  const brokerCpuBefore = cpuSplitOf(brokerPid);
  const batchesBefore = await batchStats(services['event store'].url);
  measuring = true;
  const started = performance.now();
  const running: Promise<void>[] = [];
  let due = 0;
  for (let tick = 0; performance.now() - started < SECONDS * 1000; tick++) {
    due += cyclesPerTick;
    for (; due >= 1; due--) running.push(cycle(connections[running.length % CONNECTIONS]));
    const next = started + (tick + 1) * TICK_MS;
    if (next > performance.now()) await sleep(next - performance.now());
  }
  const generated = (performance.now() - started) / 1000;
  await Promise.all(running);
  await sleep(2000);
  measuring = false;
  const report = await load.report();
  const spent = (before: { user: number; system: number }, pid: number) => {
    const now = cpuSplitOf(pid);
    return { user: now.user - before.user, system: now.system - before.system };
  };
  const cpu = Object.fromEntries(
    Object.entries(services).map(([name, s]) => [name, spent(cpuBefore[name], s.pid)]),
  );
  const brokerCpu = spent(brokerCpuBefore, brokerPid);
  const batches = await batchStats(services['event store'].url);
  const inserts = batches.count - batchesBefore.count;

  bareLatencies.sort((a, b) => a - b);
  const framesPerClient = report.frames / CLIENTS;
  console.log(`\nBroker notification to SSE frame, Artemis 2.40.0, ${new Date().toISOString()}\n`);
  console.table([
    {
      path: 'bare AMQP receiver of activemq.notifications (limit)',
      notifications: bareLatencies.length,
      'per second': (bareLatencies.length / generated).toFixed(0),
      'p50 ms': percentile(bareLatencies, 50),
      'p99 ms': percentile(bareLatencies, 99),
      'max ms': bareLatencies.at(-1),
    },
    {
      path: `broker -> notifier -> event store -> gateway -> SSE (${CLIENTS} clients)`,
      notifications: framesPerClient,
      'per second': (framesPerClient / generated).toFixed(0),
      'p50 ms': report.p50,
      'p99 ms': report.p99,
      'max ms': report.max,
    },
  ]);
  console.log(
    `frames received ${report.frames} (${CLIENTS} clients), connection errors ${report.errors}, streams closed ${report.closed}; ` +
      `every client got every event: ${framesPerClient === bareLatencies.length ? 'yes' : 'NO'}`,
  );
  const perThousand = (ms: number) => ((ms / bareLatencies.length) * 1000).toFixed(0);
  const figures = [...Object.entries(cpu), ['broker', brokerCpu] as const];
  console.log(
    `CPU ms per 1,000 events: ` +
      figures.map(([name, { user, system }]) => `${name} ${perThousand(user + system)}`).join(', '),
  );
  console.log(`CPU ms per second at rest, before the load: ${atRest.join(', ')}`);
  // The kernel's share is what the number of socket reads and writes costs, whatever they carry.
  console.log(
    `of which in the kernel: ` +
      figures.map(([name, { system }]) => `${name} ${perThousand(system)}`).join(', '),
  );
  // What each service's per-event cost is spread over: every batch is one INSERT, one socket write
  // of its acknowledgements and stored events, and one read of them by each gateway.
  console.log(
    `event store: ${inserts} INSERTs, ${((batches.sum - batchesBefore.sum) / Math.max(1, inserts)).toFixed(1)} events per INSERT; ` +
      `its pulls given up for silence: ${batches.pullsGivenUp - batchesBefore.pullsGivenUp}`,
  );

  load.stop();
  await Promise.all(connections.map((c) => c.close()));
  await watcher.close();
  for (const service of Object.values(services)) await service.stop();
  await bus.close();
  await dataSource.destroy();
  await database.drop();
  await nats.stop();
  if (!process.env.BENCH_KEEP_BROKER) await artemis('stop', 'bench');
}

runBench(__filename, main);
