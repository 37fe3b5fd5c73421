import { buckets, unobservedPeriod } from '@artemis-studio/contracts';
import {
  artemis,
  brokerCluster,
  declareLive,
  insertCluster,
  testConfig,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { STOPPED_UNANNOUNCED } from './subscriptions/observation-ledger';
import { NotifierStack } from './notifier-stack.fixture';

describe('the notifier when permissions, the broker and owners change, against a real broker', () => {
  const stack = new NotifierStack();

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

  it('states a missing permission with the security-setting snippet, and turns AVAILABLE once the broker is fixed', async () => {
    const cluster = await stack.registerLive({
      amqp: { username: stack.broker.observer.user, password: stack.broker.observer.password },
    });
    const refused = await waitFor('UNAVAILABLE', async () => {
      const v = await stack.verdictOf(cluster.id);
      return v?.status === 'UNAVAILABLE' && v;
    });
    expect(refused.reason).toMatch(/AMQ229213|not authorized/);
    expect(refused.snippet).toContain('<security-setting match="activemq.notifications">');

    expect((await stack.securitySettings('amq,viewer')).data.status).toBe(200);
    try {
      await waitFor(
        'AVAILABLE after the fix',
        async () => (await stack.verdictOf(cluster.id))?.status === 'AVAILABLE',
        {
          timeoutMs: 20_000,
        },
      );
    } finally {
      expect((await stack.securitySettings('amq')).data.status).toBe(200);
    }
  }, 60_000);

  it('comes back through its backoff when the broker restarts, and the verdict follows', async () => {
    const { cluster, events } = await stack.followAvailableCluster();

    const stoppedAt = Date.now();
    await artemis('stop', testConfig.brokerProfile);
    try {
      const down = await waitFor('UNAVAILABLE', async () => {
        const v = await stack.verdictOf(cluster.id);
        return v?.status === 'UNAVAILABLE' && v;
      });
      expect(down.reason).toMatch(/cannot subscribe on/);
    } finally {
      await artemis('start', testConfig.brokerProfile);
    }
    await waitFor(
      'AVAILABLE again',
      async () => (await stack.verdictOf(cluster.id))?.status === 'AVAILABLE',
      {
        timeoutMs: 30_000,
      },
    );
    const backAt = Date.now();

    const queue = `notifier.after-restart.${randomUUID()}`;
    const client = await stack.amqp();
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
    const cluster = await insertCluster(stack.db, brokerCluster(stack.broker));
    stack.clusterIds.push(cluster.id);
    const events = stack.streamOf(cluster.id);
    // What a notifier that died 20 s ago, 5 s after its last refresh, left behind.
    const lastRefresh = new Date(Date.now() - 25_000).toISOString();
    await (
      await stack.bus.kv(buckets.observations)
    ).put(cluster.id, {
      observedUntil: lastRefresh,
      observing: true,
      owner: 'notifier-that-crashed',
    });
    await declareLive(stack.bus, cluster.id, stack.broker);

    const record = await waitFor('the unobserved period on the stream', () => events.find(unobservedPeriod));
    expect(unobservedPeriod(record)).toEqual({
      from: lastRefresh,
      until: expect.any(String),
      reason: STOPPED_UNANNOUNCED,
    });
    expect(record.node).toBe(stack.broker.nodes[0].name);
    const mark = (await (await stack.bus.kv(buckets.observations)).get(cluster.id))?.value;
    expect(mark?.observing).toBe(true);
    expect(Date.parse(mark!.observedUntil)).toBeGreaterThanOrEqual(
      Date.parse(unobservedPeriod(record)!.until),
    );
  });
});
