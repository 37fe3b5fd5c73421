import { waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { NotifierStack, WINDOW_MS } from './notifier-stack.fixture';

describe('notifier against a real broker and NATS', () => {
  const stack = new NotifierStack();

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

  it('carries CONSUMER_CREATED and CONSUMER_CLOSED to event.raw with the promoted fields', async () => {
    const { cluster, events } = await stack.followAvailableCluster();

    const queue = `notifier.${randomUUID()}`;
    const client = await stack.amqp();
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
        node: stack.broker.nodes[0].name,
        address: queue,
        queue,
        user: stack.broker.user,
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
    const { events } = await stack.followAvailableCluster();

    // Whoever may send to the notification address can send anything. Before the normaliser checked
    // the contract, the first was refused at every publish retry, holding up every event behind it,
    // and the second threw out of the AMQP receiver (a timestamp no Date holds).
    const marker = `notifier.forged.${randomUUID()}`;
    const client = await stack.amqp();
    expect((await stack.securitySettings('amq', 'amq')).data.status).toBe(200);
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
      expect((await stack.securitySettings('amq')).data.status).toBe(200);
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
    const { cluster, events } = await stack.followAvailableCluster();
    const queue = `notifier.burst.${randomUUID()}`;
    const client = await stack.amqp();
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

      const burstSignals = stack.signals.filter(
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
});
