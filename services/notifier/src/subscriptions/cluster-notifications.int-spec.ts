import type { ObservationMark, UnobservedPeriod } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import {
  type BrokerProfile,
  brokerProfile,
  openAmqpClient,
  TcpProxy,
  testConfig,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreditGate } from '../publishing/credit-gate';
import { ClusterNotifications } from './cluster-notifications';
import { silenceLimitMs } from './notification-subscription';
import { ObservationLedger } from './observation-ledger';

/**
 * Short, so that a silent cut is noticed in seconds; the dating rule is the one deployed. Not
 * shorter: rhea's idle timer (twice this) must not fire while a busy machine holds this test's
 * event loop with the broker's heartbeats waiting to be read.
 */
const IDLE_MS = 3000;

/**
 * A subscription cut without a word (no FIN, no RST: a partition, a frozen host) is noticed only by
 * the absence of the broker's heartbeats. What the broker sent meanwhile is lost, and the history
 * must say so: the unobserved period starts before the cut, never after it (ADR-0010).
 */
describe('a notification subscription cut silently, against a real broker', () => {
  let broker: BrokerProfile;
  let proxy: TcpProxy;
  let notifications: ClusterNotifications;
  /** Every notification the subscription delivered, as text to search. */
  const heard: string[] = [];
  const periods: UnobservedPeriod[] = [];

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    const amqp = new URL(broker.nodes[0].amqpUrl);
    proxy = await TcpProxy.start(amqp.hostname, Number(amqp.port));
    let mark: ObservationMark | null = null;
    const ledger = new ObservationLedger({
      store: {
        read: async () => (mark ? { mark, revision: 1 } : null),
        write: async (m) => void (mark = m),
        replace: async (m) => ((mark = m), true),
      },
      owner: 'silent-cut-test',
      onUnobserved: (period) => periods.push(period),
      refreshMs: 1000,
      warn: () => undefined,
    });
    const target: ClusterTarget = {
      id: randomUUID(),
      name: 'silent-cut',
      revision: '1',
      jolokiaOrigin: null,
      nodes: [],
      credentials: { AMQP: { username: broker.user, password: broker.password } },
      credentialError: null,
    };
    notifications = new ClusterNotifications(target, {
      containerId: `silent-cut-${randomUUID().slice(0, 8)}`,
      creditWindow: 100,
      gate: new CreditGate({ capacity: 10_000, holdLimitMs: 60_000 }),
      idleTimeoutMs: IDLE_MS,
      onNotification: (_cluster, _node, properties) => heard.push(JSON.stringify(properties ?? {})),
      putVerdict: () => undefined,
      ledger,
    });
    notifications.apply({
      clusterId: target.id,
      asOf: new Date().toISOString(),
      nodes: [
        {
          name: 'primary',
          jolokiaUrl: broker.nodes[0].jolokiaUrl,
          amqpUrl: `amqp://127.0.0.1:${proxy.port}`,
        },
      ],
    });
  });

  afterAll(async () => {
    await notifications?.stop();
    await proxy?.stop();
  });

  it('is noticed within the silence limit, and its period covers what the broker sent into the cut', async () => {
    await waitFor('the subscription', () => notifications.isObserving());
    // The broker sends the heartbeats our idle timeout asks for: a quiet subscription stays up.
    await sleep(3 * IDLE_MS);
    expect(notifications.isObserving()).toBe(true);

    const cutAt = Date.now();
    proxy.silence();
    const queue = `silent-cut.${randomUUID()}`;
    const causedAt = Date.now();
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
    } finally {
      await client.close();
    }

    await waitFor('the cut to be noticed', () => !notifications.isObserving(), {
      timeoutMs: silenceLimitMs(IDLE_MS) + 5000,
    });
    proxy.restore();
    await waitFor('the subscription again', () => notifications.isObserving(), { timeoutMs: 20_000 });
    const period = await waitFor('the unobserved period', () => periods[0]);

    // The premise: what the broker sent into the cut never arrived.
    expect(heard.some((n) => n.includes(queue))).toBe(false);
    expect(Date.parse(period.from!)).toBeLessThanOrEqual(causedAt);
    expect(Date.parse(period.from!)).toBeGreaterThanOrEqual(cutAt - silenceLimitMs(IDLE_MS));
    expect(period.reason).toMatch(/subscription to primary was lost/);
  }, 60_000);
});
