import { NOTIFICATION_ADDRESS } from '@artemis-studio/contracts';
import {
  NOTIFICATION_RECORDING_PATH,
  NotificationSimulator,
  brokerJolokia,
  brokerProfile,
  notificationRecording,
  openAmqpClient,
  testConfig,
  waitFor,
  type BrokerProfile,
  type NotificationRecording,
  type RecordedNotification,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { ReceiverEvents, type Connection, type EventContext } from 'rhea-promise';
import { normaliseNotification } from '../events/broker-event.normaliser';
import { CreditGate } from '../publishing/credit-gate';
import { NotificationSubscription } from './notification-subscription';

type Decoded = Record<string, unknown>;

/** Every notification a receiver of `activemq.notifications` decodes, every section, in order. */
async function listen(connection: Connection, creditWindow?: number) {
  const heard: Decoded[] = [];
  const receiver = await connection.createReceiver({
    source: { address: NOTIFICATION_ADDRESS },
    ...(creditWindow === undefined ? {} : { credit_window: creditWindow }),
  });
  receiver.on(ReceiverEvents.message, (ctx: EventContext) => heard.push({ ...ctx.message } as Decoded));
  return { heard, receiver };
}

/** A decoded notification as the recording keeps it: every section but empty ones, times as ISO text. */
function recorded(message: Decoded): RecordedNotification {
  return Object.fromEntries(
    Object.entries(message)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  ) as unknown as RecordedNotification;
}

/**
 * What a reader can rely on in a notification: its sections, its type, and each property's name
 * and type. Values differ run to run.
 */
function shape(message: Decoded | RecordedNotification) {
  const m = recorded(message as Decoded);
  const typeOf = (v: unknown) => (v === null ? 'null' : typeof v);
  return {
    sections: Object.keys(m).sort(),
    type: m.application_properties._AMQ_NotifType,
    properties: Object.fromEntries(
      Object.entries(m.application_properties)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, typeOf(v)]),
    ),
    annotations: m.message_annotations,
  };
}

/** Which of a broker event's fields the normaliser could fill from a notification. */
function filled(properties: Decoded) {
  const normalised = normaliseNotification(properties, 'cluster', 'node', new Date());
  if (normalised.kind !== 'event') return normalised.kind;
  const { props: _props, ...event } = normalised.event;
  return Object.fromEntries(Object.entries(event).map(([k, v]) => [k, v === null ? 'null' : typeof v]));
}

describe('the scale rig’s notification simulator (issue 32) against the real broker', () => {
  let broker: BrokerProfile;
  const queue = 'artemis-studio.recorded-notifications';
  /** One consumer's cycle as the broker notified it, as the recording keeps it. */
  let live: RecordedNotification[];
  let names: NotificationRecording['names'];

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    const url = broker.nodes[0].amqpUrl;
    const listener = await openAmqpClient(url, broker.user, broker.password);
    const clientId = randomUUID();
    const client = await openAmqpClient(url, broker.user, broker.password, clientId);
    try {
      const { heard } = await listen(listener);
      const closedSession = (from: number) =>
        heard.slice(from).some((m) => {
          const p = m.application_properties as Decoded;
          return p._AMQ_NotifType === 'SESSION_CLOSED' && p._AMQ_Client_ID === clientId;
        });
      // A first cycle makes the queue (its address and binding notified too), the second is the one kept.
      const cycle = async () => {
        const from = heard.length;
        const receiver = await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
        await receiver.close();
        await waitFor('the session’s close to be notified', () => closedSession(from));
        return from;
      };
      await cycle();
      const from = await cycle();
      live = heard
        .slice(from)
        .filter((m) => (m.application_properties as Decoded)._AMQ_Client_ID === clientId)
        .map(recorded);
    } finally {
      await client.close();
      await listener.close();
    }
    const consumer = live.find((m) => m.application_properties._AMQ_NotifType === 'CONSUMER_CREATED');
    const session = live.find((m) => m.application_properties._AMQ_NotifType === 'SESSION_CREATED');
    names = {
      queue,
      session: String(consumer?.application_properties._AMQ_SessionName),
      clientId,
      remoteAddress: String(consumer?.application_properties._AMQ_RemoteAddress),
      connection: String(session?.application_properties._AMQ_ConnectionName),
    };
    // RECORD_NOTIFICATIONS=1 records the cycle afresh (a new broker version); prettier --write it after.
    if (process.env.RECORD_NOTIFICATIONS === '1') {
      const { value: version } = await brokerJolokia(broker, {
        type: 'read',
        mbean: 'org.apache.activemq.artemis:broker=*',
        attribute: 'Version',
      });
      const artemisVersion = String(Object.values(version as Record<string, { Version: string }>)[0].Version);
      const recording: NotificationRecording = { artemisVersion, names, cycle: live };
      writeFileSync(NOTIFICATION_RECORDING_PATH, `${JSON.stringify(recording, null, 2)}\n`);
    }
  });

  it('was recorded from this broker: a consumer’s cycle still has the recorded shapes', () => {
    expect(live.map((m) => m.application_properties._AMQ_NotifType)).toEqual([
      'SESSION_CREATED',
      'CONSUMER_CREATED',
      'CONSUMER_CLOSED',
      'SESSION_CLOSED',
    ]);
    expect(live.map(shape)).toEqual(notificationRecording().cycle.map(shape));
  });

  it('sends what the broker sends, and the notifier reads it alike', async () => {
    const sim = await NotificationSimulator.start({ clusters: [{ queues: 3 }], perSecond: 0 });
    const connection = await openAmqpClient(sim.amqpUrl(0), 'sim', 'sim');
    try {
      const { heard } = await listen(connection);
      await waitFor('the subscriber to be attached', () => sim.subscribers()[0] === 1);
      sim.burst(0, 8);
      await waitFor('two cycles to arrive', () => heard.length === 8);
      expect(sim.caused).toEqual([8]);
      const simulated = heard.map((m) => recorded(m));
      expect(simulated.slice(0, 4).map(shape)).toEqual(live.map(shape));
      expect(simulated.slice(4).map(shape)).toEqual(live.map(shape));
      // What the notifier makes of them: the same broker-event fields filled, of the same types.
      expect(simulated.map((m) => filled(m.application_properties))).toEqual(
        [...live, ...live].map((m) => filled(m.application_properties)),
      );
      // Each consumer's notifications name one of the node's queues, and no two are the same.
      const properties = simulated.map((m) => m.application_properties);
      expect(properties[1]._AMQ_RoutingName).toMatch(/^sim\.c0\.q[0-2]$/);
      expect(new Set(properties.map((p) => JSON.stringify(p))).size).toBe(8);
      expect(Math.abs(Number(properties[0]._AMQ_NotifTimestamp) - Date.now())).toBeLessThan(10_000);
    } finally {
      await connection.close();
      await sim.stop();
    }
  });

  it('holds what a subscriber has no credit for, as the broker does, and the notifier’s subscription takes it all', async () => {
    const sim = await NotificationSimulator.start({ clusters: [{ queues: 5 }, { queues: 5 }], perSecond: 0 });
    const gate = new CreditGate({ capacity: 100, holdLimitMs: 60_000 });
    const got: Decoded[] = [];
    const states: string[] = [];
    const subscription = new NotificationSubscription({
      node: { name: 'live', amqpUrl: sim.amqpUrl(1) },
      credential: { username: 'sim', password: 'sim' },
      containerId: `artemis-studio-notifier-${randomUUID()}`,
      creditWindow: 10,
      gate,
      idleTimeoutMs: 15_000,
      onNotification: (properties, receipt) => {
        got.push(properties!);
        receipt.accept();
      },
      onState: (state) => states.push(state.state),
    });
    const raw = await openAmqpClient(sim.amqpUrl(1));
    try {
      // A raw receiver granting no credit: the simulator keeps its notifications waiting.
      const { heard, receiver } = await listen(raw, 0);
      subscription.start();
      await waitFor('both subscribers to be attached', () => sim.subscribers()[1] === 2);
      expect(states).toContain('subscribed');
      sim.burst(1, 40);
      sim.burst(0, 4);
      await waitFor('the notifier’s subscription to take all 40', () => got.length === 40);
      expect(heard).toHaveLength(0);
      expect(sim.backlog()).toBe(40);
      receiver.addCredit(15);
      await waitFor('15 to arrive', () => heard.length === 15);
      expect(sim.backlog()).toBe(25);
      receiver.addCredit(100);
      await waitFor('the rest to arrive', () => heard.length === 40);
      // In the order they were made, to both subscribers, and only cluster 1's.
      expect(heard.map((m) => JSON.stringify(m.application_properties))).toEqual(
        got.map((p) => JSON.stringify(p)),
      );
      expect(sim.caused).toEqual([4, 40]);
      expect(sim.dropped).toBe(0);
    } finally {
      await subscription.stop();
      await raw.close();
      await sim.stop();
    }
  });

  it('refuses a ring it does not keep, as the broker refuses a queue that is not there', async () => {
    const sim = await NotificationSimulator.start({ clusters: [{ queues: 1 }], perSecond: 0 });
    const connection = await openAmqpClient(sim.amqpUrl(0));
    try {
      const attached = connection
        .createReceiver({ source: { address: `${NOTIFICATION_ADDRESS}::artemis-studio.ring` } })
        .then((r) => r.isOpen() && Boolean(r.source?.address))
        .catch(() => false);
      expect(await attached).toBe(false);
      expect(sim.refused).toBe(1);
      expect(sim.subscribers()).toEqual([0]);
    } finally {
      await connection.close();
      await sim.stop();
    }
  });

  it('stops with subscribers still attached and a peer that never answers: their connections are ended, not waited for', async () => {
    const sim = await NotificationSimulator.start({ clusters: [{ queues: 1 }, { queues: 1 }], perSecond: 0 });
    const connections = await Promise.all([openAmqpClient(sim.amqpUrl(0)), openAmqpClient(sim.amqpUrl(1))]);
    await Promise.all(connections.map((c) => listen(c)));
    await waitFor('both subscribers to be attached', () => sim.subscribers().every((n) => n === 1));
    // And a peer that never says a word of AMQP, so never answers a close either.
    const { port } = new URL(sim.amqpUrl(0));
    const silent = createConnection(Number(port), '127.0.0.1');
    await new Promise((resolve) => silent.once('connect', resolve));
    const silentClosed = new Promise((resolve) => silent.once('close', resolve));
    const started = Date.now();
    await sim.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    await silentClosed;
    await waitFor('the subscribers to see their connections end', () =>
      connections.every((c) => !c.isOpen()),
    );
  });
});
