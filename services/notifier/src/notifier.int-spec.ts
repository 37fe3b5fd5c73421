import type { Stoppable } from '@artemis-studio/bus';
import {
  buckets,
  channels,
  subjectPatterns,
  type CapabilityVerdict,
  type Signal,
  unobservedPeriod,
} from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  artemis,
  brokerCluster,
  type BrokerProfile,
  brokerProfile,
  cleanStream,
  followRawEvents,
  declareLive,
  insertCluster,
  openAmqpClient,
  type RunningService,
  startService,
  testBus,
  testConfig,
  testDatabaseUrl,
  waitFor,
} from '@artemis-studio/testing';
import axios from 'axios';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { NotifierModule } from './app.module';
import { STOPPED_UNANNOUNCED } from './subscriptions/observation-ledger';

const WINDOW_MS = 1000;

describe('notifier against a real broker and NATS', () => {
  let broker: BrokerProfile;
  let db: DataSource;
  let notifier: RunningService;
  const bus = testBus('notifier-test');
  const signals: (Signal & { at: number })[] = [];
  const consumers: Stoppable[] = [];
  const durables: string[] = [];
  const clusterIds: string[] = [];

  const amqp = (user = broker.user, password = broker.password) =>
    openAmqpClient(broker.nodes[0].amqpUrl, user, password);

  /** Registers the test broker as a cluster and says it is live, as the scraper would. */
  const registerLive = async (credentials?: { amqp?: { username: string; password: string } }) => {
    const cluster = await insertCluster(db, { ...brokerCluster(broker), ...credentials });
    clusterIds.push(cluster.id);
    await declareLive(bus, cluster.id, broker);
    return cluster;
  };

  /** Every event of the cluster the stream holds, read with a durable consumer of our own. */
  const streamOf = (clusterId: string) => {
    const { events, durable, consumer } = followRawEvents(bus, clusterId, 'notifier-test');
    durables.push(durable);
    consumers.push(consumer);
    return events;
  };

  const verdictOf = async (clusterId: string): Promise<CapabilityVerdict | undefined> =>
    (await (await bus.kv(buckets.capabilities)).get(clusterId))?.value;

  /** A live cluster registered, its raw events followed, once the notifier subscribes to it. */
  const followAvailableCluster = async () => {
    const cluster = await registerLive();
    const events = streamOf(cluster.id);
    await waitFor('AVAILABLE', async () => (await verdictOf(cluster.id))?.status === 'AVAILABLE');
    return { cluster, events };
  };

  /** The notification address's security setting: `roles` may subscribe, `senders` send to it. */
  const securitySettings = (roles: string, senders = '') =>
    axios.post(
      broker.nodes[0].jolokiaUrl,
      {
        type: 'exec',
        mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}"`,
        operation: `addSecuritySettings(${Array(8).fill('java.lang.String').join(',')})`,
        arguments: ['activemq.notifications', senders, roles, '', '', roles, roles, ''],
      },
      { auth: { username: broker.user, password: broker.password }, headers: { Origin: 'http://127.0.0.1' } },
    );

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    bus.subscribe(
      channels.signal,
      subjectPatterns.signal(),
      (s) => void signals.push({ ...s, at: Date.now() }),
    );
    await bus.ready();
    notifier = await startService(NotifierModule, { LEASE_TTL_MS: '3000' });
  });

  afterAll(async () => {
    await notifier.close();
    for (const c of consumers) await c.stop();
    await cleanStream({ clusterIds, durables });
    await bus.close();
    await db.destroy();
  });

  it('carries CONSUMER_CREATED and CONSUMER_CLOSED to event.raw with the promoted fields', async () => {
    const { cluster, events } = await followAvailableCluster();

    const queue = `notifier.${randomUUID()}`;
    const client = await amqp();
    const receiver = await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
    await receiver.close();
    await client.close();

    const ofQueue = (type: string) => events.find((e) => e.type === type && e.queue === queue);
    await waitFor(
      'both events on the stream',
      () => ofQueue('CONSUMER_CREATED') && ofQueue('CONSUMER_CLOSED'),
    );
    for (const type of ['CONSUMER_CREATED', 'CONSUMER_CLOSED']) {
      expect(ofQueue(type)).toMatchObject({
        clusterId: cluster.id,
        node: broker.nodes[0].name,
        address: queue,
        queue,
        user: broker.user,
        remoteAddress: expect.stringContaining('127.0.0.1'),
        session: expect.any(String),
        consumer: expect.any(String),
        brokerTs: expect.any(String),
        props: expect.objectContaining({ _AMQ_NotifType: type, _AMQ_Distance: 0 }),
      });
    }
    // What our own subscriptions cause is not reported as broker events.
    expect(
      events.filter((e) => String(e.props._AMQ_Client_ID ?? '').startsWith('artemis-studio-notifier')),
    ).toEqual([]);
    expect(events.filter((e) => e.address === 'activemq.notifications')).toEqual([]);
  });

  it('skips a notification sent by hand that breaks the contract, and the events after it still come', async () => {
    const { events } = await followAvailableCluster();

    // Whoever may send to the notification address can send anything. Before the normaliser checked
    // the contract, the first was refused at every publish retry, holding up every event behind it,
    // and the second threw out of the AMQP receiver (a timestamp no Date holds).
    const marker = `notifier.forged.${randomUUID()}`;
    const client = await amqp();
    expect((await securitySettings('amq', 'amq')).data.status).toBe(200);
    try {
      const sender = await client.createAwaitableSender({ target: { address: 'activemq.notifications' } });
      await sender.send({
        body: '',
        application_properties: { _AMQ_NotifType: 'X'.repeat(150), _AMQ_RoutingName: marker },
      });
      await sender.send({
        body: '',
        application_properties: {
          _AMQ_NotifType: 'CONSUMER_CREATED',
          _AMQ_NotifTimestamp: 9e15,
          _AMQ_RoutingName: marker,
        },
      });
      await sender.close();
    } finally {
      expect((await securitySettings('amq')).data.status).toBe(200);
    }
    const queue = `notifier.${randomUUID()}`;
    const receiver = await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
    await receiver.close();
    await client.close();

    await waitFor('the real event after the forged ones', () =>
      events.some((e) => e.type === 'CONSUMER_CREATED' && e.queue === queue),
    );
    expect(events.filter((e) => e.queue === marker)).toEqual([
      expect.objectContaining({ type: 'CONSUMER_CREATED', brokerTs: null }),
    ]);
  });

  it('carries a burst of 500 attaching receivers exactly, with at most one consumers signal per window', async () => {
    const { cluster, events } = await followAvailableCluster();
    const queue = `notifier.burst.${randomUUID()}`;
    const client = await amqp();
    try {
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 500 }, () =>
          client.createReceiver({ source: { address: queue, capabilities: ['queue'] } }),
        ),
      );
      const created = () => events.filter((e) => e.type === 'CONSUMER_CREATED' && e.queue === queue);
      await waitFor('500 CONSUMER_CREATED on the stream', () => created().length >= 500, {
        timeoutMs: 30_000,
      });
      await new Promise((r) => setTimeout(r, 2 * WINDOW_MS)); // the trailing signal, and any straggler event
      expect(created()).toHaveLength(500);
      expect(new Set(created().map((e) => e.eventId)).size).toBe(500);

      const burstSignals = signals.filter(
        (s) => s.clusterId === cluster.id && s.topic === 'consumers' && s.at >= started,
      );
      expect(burstSignals.length).toBeGreaterThan(0);
      // Spaced by the notifier's own stamps: times of receipt here carry this process's delays too,
      // and under CI load two receipts once came 946 ms apart with a window of 1,000 ms.
      const sentAt = burstSignals.map((s) => Date.parse(s.ts));
      for (let i = 1; i < sentAt.length; i++) {
        expect(sentAt[i] - sentAt[i - 1]).toBeGreaterThanOrEqual(WINDOW_MS - 50);
      }
    } finally {
      await client.close();
    }
  });

  it('states a missing permission with the security-setting snippet, and turns AVAILABLE once the broker is fixed', async () => {
    const cluster = await registerLive({
      amqp: { username: broker.observer.user, password: broker.observer.password },
    });
    const refused = await waitFor('UNAVAILABLE', async () => {
      const v = await verdictOf(cluster.id);
      return v?.status === 'UNAVAILABLE' && v;
    });
    expect(refused.reason).toMatch(/AMQ229213|not authorized/);
    expect(refused.snippet).toContain('<security-setting match="activemq.notifications">');

    expect((await securitySettings('amq,viewer')).data.status).toBe(200);
    try {
      await waitFor(
        'AVAILABLE after the fix',
        async () => (await verdictOf(cluster.id))?.status === 'AVAILABLE',
        {
          timeoutMs: 20_000,
        },
      );
    } finally {
      expect((await securitySettings('amq')).data.status).toBe(200);
    }
  }, 60_000);

  it('comes back through its backoff when the broker restarts, and the verdict follows', async () => {
    const { cluster, events } = await followAvailableCluster();

    const stoppedAt = Date.now();
    await artemis('stop', testConfig.brokerProfile);
    try {
      const down = await waitFor('UNAVAILABLE', async () => {
        const v = await verdictOf(cluster.id);
        return v?.status === 'UNAVAILABLE' && v;
      });
      expect(down.reason).toMatch(/cannot subscribe on/);
    } finally {
      await artemis('start', testConfig.brokerProfile);
    }
    await waitFor('AVAILABLE again', async () => (await verdictOf(cluster.id))?.status === 'AVAILABLE', {
      timeoutMs: 30_000,
    });
    const backAt = Date.now();

    const queue = `notifier.after-restart.${randomUUID()}`;
    const client = await amqp();
    await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
    await waitFor('an event after the restart', () =>
      events.some((e) => e.queue === queue && e.type === 'CONSUMER_CREATED'),
    );
    await client.close();

    // The history says it has a hole while the broker was away, and why.
    const periods = events.map(unobservedPeriod).filter((p) => p !== null);
    expect(periods).toHaveLength(1);
    expect(periods[0].reason).toMatch(/subscription to .* was lost/);
    expect(Date.parse(periods[0].from!)).toBeGreaterThanOrEqual(stoppedAt - 31_000);
    expect(Date.parse(periods[0].until)).toBeLessThanOrEqual(backAt);
  }, 90_000);

  it('records the period a crashed owner left unobserved when it takes the cluster over', async () => {
    const cluster = await insertCluster(db, brokerCluster(broker));
    clusterIds.push(cluster.id);
    const events = streamOf(cluster.id);
    // What a notifier that died 20 s ago, 5 s after its last refresh, left behind.
    const lastRefresh = new Date(Date.now() - 25_000).toISOString();
    await (
      await bus.kv(buckets.observations)
    ).put(cluster.id, {
      observedUntil: lastRefresh,
      observing: true,
      owner: 'notifier-that-crashed',
    });
    await declareLive(bus, cluster.id, broker);

    const record = await waitFor('the unobserved period on the stream', () => events.find(unobservedPeriod));
    expect(unobservedPeriod(record)).toEqual({
      from: lastRefresh,
      until: expect.any(String),
      reason: STOPPED_UNANNOUNCED,
    });
    expect(record.node).toBe(broker.nodes[0].name);
    const mark = (await (await bus.kv(buckets.observations)).get(cluster.id))?.value;
    expect(mark?.observing).toBe(true);
    expect(Date.parse(mark!.observedUntil)).toBeGreaterThanOrEqual(
      Date.parse(unobservedPeriod(record)!.until),
    );
  });
});
