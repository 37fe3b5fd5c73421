/**
 * Notifications carried from one real broker to the STUDIO_EVENTS stream (issue 4):
 *   npm run bench -- notifier-throughput        (BENCH_RECEIVERS=2500 attach + detach)
 * The notifier runs as its own process (its CPU read from /proc); a bare AMQP receiver on
 * activemq.notifications, counting the same burst in the same run, is the limit.
 */
import { NatsBus } from '@artemis-studio/bus';
import { buckets, channels, subjects } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  artemis,
  brokerCluster,
  createTestDatabase,
  declareLive,
  insertCluster,
  spawnService,
  startBroker,
  testConfig,
} from '@artemis-studio/testing';
import { connect } from 'nats';
import { randomUUID } from 'node:crypto';
import { Connection, ReceiverEvents, type EventContext } from 'rhea-promise';
import { cpuMsOf } from './support/process-stats';
import { runBench } from './support/run-bench';

const RECEIVERS = Number(process.env.BENCH_RECEIVERS ?? 2500);
const PER_CONNECTION = 250;

async function main(): Promise<void> {
  const broker = await startBroker('bench');
  const node = broker.nodes[0];
  const { hostname, port } = new URL(node.amqpUrl);
  const amqp = (containerId?: string) =>
    new Connection({
      host: hostname,
      port: Number(port),
      username: broker.user,
      password: broker.password,
      reconnect: false,
      container_id: containerId,
    }).open();

  const database = await createTestDatabase({ migrated: true });
  process.env.STUDIO_TEST_DATABASE_URL = database.url;
  const dataSource = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
  const cluster = await insertCluster(dataSource, brokerCluster(broker, 'bench'));
  const bus = new NatsBus({
    servers: testConfig.natsUrl,
    name: 'notifier-bench',
    log: { warn() {}, error() {} },
  });
  await declareLive(bus, cluster.id, broker);
  const notifier = await spawnService('notifier', 18382, { LEASE_TTL_MS: '3000' });
  const capabilities = await bus.kv(buckets.capabilities);
  while ((await capabilities.get(cluster.id))?.value.status !== 'AVAILABLE')
    await new Promise((r) => setTimeout(r, 100));

  const queue = `bench.burst.${randomUUID()}`;
  const isBurst = (p: Record<string, unknown> | undefined) =>
    p?._AMQ_RoutingName === queue && String(p?._AMQ_NotifType).startsWith('CONSUMER_');
  const expected = RECEIVERS * 2;

  // The limit: a bare receiver, no normalising, no stream.
  let bare = 0;
  let bareDone = 0;
  const watcher = await amqp('bench-bare-watcher');
  const bareReceiver = await watcher.createReceiver({
    source: { address: 'activemq.notifications' },
    credit_window: 1000,
  });
  bareReceiver.on(ReceiverEvents.message, (ctx: EventContext) => {
    if (isBurst(ctx.message?.application_properties) && ++bare === expected) bareDone = performance.now();
  });

  // What reached the stream, counted by a durable consumer of our own.
  let streamed = 0;
  let streamDone = 0;
  const durable = `notifier-bench-${randomUUID().slice(0, 8)}`;
  const counter = bus.consume(
    channels.eventRaw,
    { durable, filterSubject: subjects.eventRaw(cluster.id), maxAckPending: 5000 },
    (event, delivery) => {
      delivery.ack();
      if (event.queue === queue && event.type.startsWith('CONSUMER_') && ++streamed === expected)
        streamDone = performance.now();
    },
  );

  const cpuBefore = cpuMsOf(notifier.pid);
  const started = performance.now();
  const clients = await Promise.all(
    Array.from({ length: Math.ceil(RECEIVERS / PER_CONNECTION) }, () => amqp()),
  );
  await Promise.all(
    clients.map(async (client, i) => {
      const count = Math.min(PER_CONNECTION, RECEIVERS - i * PER_CONNECTION);
      const receivers = await Promise.all(
        Array.from({ length: count }, () =>
          client.createReceiver({ source: { address: queue, capabilities: ['queue'] } }),
        ),
      );
      await Promise.all(receivers.map((r) => r.close()));
    }),
  );
  const burstEnded = performance.now();
  const deadline = Date.now() + 120_000;
  while ((streamed < expected || bare < expected) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 500));
  const cpuMs = cpuMsOf(notifier.pid) - cpuBefore;

  const seconds = (end: number) => (end - started) / 1000;
  console.log(
    `\nNotifier throughput: ${RECEIVERS} receivers attaching and detaching (${expected} consumer events), Artemis 2.40.0, ${new Date().toISOString()}\n`,
  );
  console.table([
    {
      path: 'bare AMQP receiver (limit)',
      events: bare,
      'seconds from burst start': seconds(bareDone).toFixed(2),
      'events/s': (bare / seconds(bareDone)).toFixed(0),
    },
    {
      path: 'notifier to STUDIO_EVENTS',
      events: streamed,
      'seconds from burst start': seconds(streamDone).toFixed(2),
      'events/s': (streamed / seconds(streamDone)).toFixed(0),
    },
  ]);
  console.log(
    `burst generation took ${((burstEnded - started) / 1000).toFixed(2)} s; stream lag behind the bare receiver at the end: ${(streamDone - bareDone).toFixed(0)} ms`,
  );
  console.log(
    `notifier CPU: ${cpuMs.toFixed(0)} ms for all notifications it received, ${((cpuMs / expected) * 1000).toFixed(0)} ms per 1,000 consumer events (session and connection events of the burst included in the work)`,
  );
  console.log(
    `ratio notifier/bare events per second: ${(streamed / seconds(streamDone) / (bare / seconds(bareDone))).toFixed(2)}`,
  );
  if (streamed !== expected) console.log(`MISSING: ${expected - streamed} events did not reach the stream`);

  await Promise.all(clients.map((c) => c.close()));
  await watcher.close();
  await counter.stop();
  const nc = await connect({ servers: testConfig.natsUrl });
  await (await nc.jetstreamManager()).consumers.delete('STUDIO_EVENTS', durable).catch(() => undefined);
  await nc.close();
  await notifier.stop();
  await bus.close();
  await dataSource.destroy();
  await database.drop();
  if (!process.env.BENCH_KEEP_BROKER) await artemis('stop', 'bench');
}

runBench(__filename, main);
