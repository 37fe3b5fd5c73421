import type { Stoppable } from '@artemis-studio/bus';
import {
  buckets,
  rpcs,
  UNOBSERVED_EVENT_TYPE,
  type CapabilityVerdict,
  type DropReport,
} from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  brokerCluster,
  brokerProfile,
  type BrokerProfile,
  churnConsumers,
  cleanStream,
  consumerEventsOf,
  createTestDatabase,
  followRawEvents,
  insertCluster,
  notificationQueues,
  openAmqpClient,
  type ServiceProcess,
  spawnService,
  testBus,
  testConfig,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

const SERVICE_ENV = { LEASE_TTL_MS: '3000' };

/**
 * Studio's durable ring of notifications (issue 30, item 1; ADR-0015), end to end: a real scraper
 * makes and bounds the ring on the broker, real notifier processes read it, and one is killed.
 * The suite has a database of its own: the clusters other suites left would each get a ring too.
 */
describe('the durable ring: a scraper makes it, notifiers read it, a crash loses nothing', () => {
  let broker: BrokerProfile;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  let cluster: { id: string };
  let env: Record<string, string>;
  const bus = testBus('durable-ring-test');
  const processes: ServiceProcess[] = [];
  const consumers: Stoppable[] = [];
  const durables: string[] = [];
  /** Drop reports, answered here as the event store would: the suite runs none. */
  const reports: DropReport[] = [];
  let serving: (() => void) | undefined;
  let nextPort = 18461;
  /** The notification address's queues before the suite (another test's subscription, say). */
  let queuesBefore: Set<string>;

  const setting = (key: string, value: number) =>
    db.query(
      `INSERT INTO studio_setting (key, value, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, JSON.stringify(value)],
    );
  const ringOnBroker = async () =>
    (await notificationQueues(broker)).find((q) => q.name === `artemis-studio.${cluster.id}`);
  const verdict = async (): Promise<CapabilityVerdict | undefined> =>
    (await (await bus.kv(buckets.capabilities)).get(cluster.id))?.value;
  const spawn = async (name: string) => {
    const service = await spawnService(name, nextPort++, env);
    processes.push(service);
    return service;
  };

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    queuesBefore = new Set((await notificationQueues(broker)).map((q) => q.name));
    database = await createTestDatabase({ migrated: true });
    db = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
    env = { ...SERVICE_ENV, DATABASE_URL: database.url };
    await bus.ready();
    serving = bus.serve(rpcs.recordDrops, async (report) => {
      if (!reports.some((r) => r.reportId === report.reportId)) reports.push(report);
      return { dropped: reports.reduce((n, r) => n + r.count, 0) };
    });
    await setting('artemis-studio.scrape.tier-a-millis', 1000);
    await setting('artemis-studio.notifications.ring-size', 5000);
    cluster = await insertCluster(db, brokerCluster(broker));
  });

  afterAll(async () => {
    for (const p of processes) await p.kill().catch(() => undefined);
    for (const c of consumers) await c.stop();
    serving?.();
    await cleanStream({ clusterIds: [cluster.id], durables });
    await bus.close();
    await db.destroy();
    await database.drop();
  });

  it('is made with its bound, read durably, and a notifier SIGKILLed loses nothing and states no gap', async () => {
    await spawn('scraper');
    await spawn('notifier');
    const ring = await waitFor('the ring on the broker', ringOnBroker);
    expect(ring.ringSize).toBe(5000);
    const durable = await waitFor('a durable verdict', async () => {
      const v = await verdict();
      return v?.mode === 'durable' ? v : undefined;
    });
    expect(durable.status).toBe('AVAILABLE');
    expect(durable.reason).toMatch(/durable ring/);
    expect((await ringOnBroker())?.consumers).toBe(1);

    const { events, durable: follower, consumer } = followRawEvents(bus, cluster.id, 'ring');
    durables.push(follower);
    consumers.push(consumer);
    const queue = `ring.${randomUUID()}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    const load = churnConsumers(client, queue);
    try {
      await waitFor('notifications through the first notifier', () => events.some((e) => e.queue === queue));
      // A crash: no handover, no flush; what it had received and not yet published was never accepted.
      await processes[1].kill();
      const atKill = load.caused();
      await spawn('notifier');
      await waitFor('the churn to go on past the takeover', () => load.caused() >= atKill + 600, {
        timeoutMs: 30_000,
      });
      await waitFor('the new notifier reading the ring', async () => (await ringOnBroker())?.consumers === 1);
    } finally {
      await load.stop();
      await client.close();
    }
    const caused = load.caused();
    const ofQueue = await consumerEventsOf(events, queue, caused);
    expect(ofQueue).toHaveLength(caused);
    expect(new Set(ofQueue.map((e) => e.eventId)).size).toBe(caused);
    expect(events.filter((e) => e.type === UNOBSERVED_EVENT_TYPE)).toEqual([]);
    expect(reports).toEqual([]);
  });

  it("counts what a full ring discarded as dropped, from the broker's own counters", async () => {
    // Nobody reads: the ring fills, and its oldest go.
    await processes[2].stop();
    await setting('artemis-studio.notifications.ring-size', 50);
    await waitFor('the ring bounded at 50', async () => (await ringOnBroker())?.ringSize === 50, {
      timeoutMs: 20_000,
    });
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    const queue = `ring.${randomUUID()}`;
    for (let i = 0; i < 100; i++) {
      const receiver = await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
      await receiver.close();
    }
    await client.close();
    const reported = () => reports.reduce((n, r) => n + r.count, 0);
    // The broker's count moves on a little after the last receiver (our connection's own
    // notifications): the reports follow it, to the notification.
    const full = await waitFor(
      'every discard reported',
      async () => {
        const ring = await ringOnBroker();
        return ring && ring.messageCount === 50 && ring.discarded >= 150 && reported() === ring.discarded
          ? ring
          : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(reported()).toBe(full.discarded);
    expect(reports.every((r) => r.source === 'broker-ring' && r.clusterId === cluster.id)).toBe(true);
    expect(reports[0].reason).toMatch(/ring .* was full/);
    // The live-node set carries the count on, for the next owner of the cluster.
    const set = (await (await bus.kv(buckets.liveNodes)).get(cluster.id))?.value;
    expect(set?.nodes[0].ring).toMatchObject({ size: 50, discarded: reported() });
  });

  it('is removed when turned off, for all or for one cluster, and when the cluster is deleted, and leaves nothing behind', async () => {
    await spawn('notifier');
    await waitFor('durable again', async () => ((await verdict())?.mode === 'durable' ? true : undefined));
    await setting('artemis-studio.notifications.ring-size', 0);
    const nonDurable = await waitFor(
      'the notifier on a subscription of its own',
      async () => {
        const v = await verdict();
        return v?.mode === 'non-durable' ? v : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(nonDurable.reason).toMatch(/not durably.*turned off/);
    await waitFor('the ring destroyed', async () => ((await ringOnBroker()) ? undefined : true), {
      timeoutMs: 40_000,
    });

    await setting('artemis-studio.notifications.ring-size', 1000);
    await waitFor('the ring made again', async () => (await ringOnBroker())?.ringSize === 1000, {
      timeoutMs: 20_000,
    });
    await waitFor('durable again', async () => ((await verdict())?.mode === 'durable' ? true : undefined));

    // Turned off for this cluster alone (its registration), the setting still on: the same way out.
    await db.query(`UPDATE cluster SET notification_ring = false WHERE id = $1`, [cluster.id]);
    const offHere = await waitFor(
      'the cluster off its ring',
      async () => {
        const v = await verdict();
        return v?.mode === 'non-durable' ? v : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(offHere.reason).toMatch(/turned off for this cluster/);
    await waitFor('the ring destroyed', async () => ((await ringOnBroker()) ? undefined : true), {
      timeoutMs: 40_000,
    });
    await db.query(`UPDATE cluster SET notification_ring = true WHERE id = $1`, [cluster.id]);
    await waitFor('the ring made again', async () => (await ringOnBroker())?.ringSize === 1000, {
      timeoutMs: 20_000,
    });
    await waitFor('durable again', async () => ((await verdict())?.mode === 'durable' ? true : undefined));
    await db.query(`DELETE FROM cluster WHERE id = $1`, [cluster.id]);
    // Neither the ring nor a notifier's subscription queue: the address holds what it held before.
    await waitFor(
      'nothing of the cluster left on the broker',
      async () => {
        const left = (await notificationQueues(broker)).filter((q) => !queuesBefore.has(q.name));
        return left.length === 0 ? true : undefined;
      },
      { timeoutMs: 40_000 },
    );
  });
});
