import { channels, subjects } from '@artemis-studio/contracts';
import { startPrivateNats, waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { BusConnection } from './connection';
import { NatsBus } from './nats-bus';
import { CountingMetrics, quiet, rawEvent } from './nats-bus.fixture';

describe('NatsBus when its NATS server restarts', () => {
  it('says so when it is back, after which its subscriptions receive again', async () => {
    const nats = await startPrivateNats();
    const warnings: string[] = [];
    const bus = new NatsBus({
      servers: nats.url,
      name: 'bus-reconnect-test',
      metrics: new CountingMetrics(),
      log: { warn: (m) => void warnings.push(m), error: () => undefined },
    });
    try {
      await bus.ready();
      let reconnects = 0;
      bus.onReconnect(() => reconnects++);
      const received: string[] = [];
      const clusterId = randomUUID();
      bus.subscribe(channels.signal, subjects.signal(clusterId, 'queues'), (s) => void received.push(s.ts));
      await bus.flush();

      await nats.restart(300);
      await waitFor('the bus back', async () => reconnects === 1, { timeoutMs: 15_000 });
      expect(warnings.some((w) => w.startsWith('bus: connection to NATS lost'))).toBe(true);
      expect(warnings.some((w) => /^bus: reconnected to NATS after \d+\.\d s/.test(w))).toBe(true);
      const ts = new Date().toISOString();
      bus.publish(channels.signal, subjects.signal(clusterId, 'queues'), { topic: 'queues', clusterId, ts });
      await waitFor('the signal after the reconnect', async () => received.includes(ts), { timeoutMs: 5000 });
    } finally {
      await bus.close();
      await nats.stop();
    }
  }, 30_000);
});

describe("NatsBus's consumer when its NATS server restarts", () => {
  it('counts the silence of the pulls the server forgot once, says so once, and reads on', async () => {
    const nats = await startPrivateNats();
    const warnings: string[] = [];
    const metrics = new CountingMetrics();
    const bus = new NatsBus({
      servers: nats.url,
      name: 'bus-pull-restart-test',
      metrics,
      log: { warn: (m) => void warnings.push(m), error: () => undefined },
    });
    try {
      await bus.ready();
      const clusterId = randomUUID();
      const durable = 'bus-pull-restart';
      const got: string[] = [];
      const consumer = bus.consume(
        channels.eventRaw,
        { durable, filterSubject: subjects.eventRaw(clusterId) },
        (event, delivery) => {
          got.push(event.eventId);
          delivery.ack();
        },
      );
      const send = async (n: number) => {
        const event = rawEvent(clusterId, n);
        await bus.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), event, {
          msgId: event.eventId,
        });
        return event.eventId;
      };
      const before = await send(1);
      await waitFor('the first event', () => got.includes(before));
      expect(metrics.counts[`given-up:${durable}`]).toBeUndefined();

      // The restarted server keeps the stream and the consumer (on disk) but not the pulls waiting
      // on it: none of them ends, with messages or a status, and without the watch none follows.
      // Down for 7 s, the watch pulls again twice before the server is back: one silence, said once.
      let reconnects = 0;
      bus.onReconnect(() => reconnects++);
      await nats.restart(7000);
      await waitFor('the bus back', async () => reconnects === 1, { timeoutMs: 15_000 });
      const after = await send(2);
      await waitFor('the event sent after the restart', () => got.includes(after), { timeoutMs: 10_000 });
      expect(metrics.counts[`given-up:${durable}`]).toBe(1);
      expect(
        warnings.filter((w) => w.startsWith(`bus: consumer ${durable} heard nothing of its pulls for 3 s`)),
      ).toHaveLength(1);
      await consumer.stop();
    } finally {
      await bus.close();
      await nats.stop();
    }
  }, 40_000);
});

describe('NatsBus closed while NATS is away', () => {
  it('ends its connection, and dials no more', async () => {
    const nats = await startPrivateNats();
    const bus = new NatsBus({
      servers: nats.url,
      name: 'bus-close-away-test',
      metrics: new CountingMetrics(),
      log: quiet,
    });
    try {
      await bus.ready();
      // Drain waits on every subscription: a service's bus always has some.
      bus.subscribe(channels.signal, subjects.signal(randomUUID(), 'queues'), () => undefined);
      await bus.flush();
      await nats.stop();
      await waitFor('the bus reconnecting', async () => bus.state === 'reconnecting', { timeoutMs: 15_000 });

      await bus.close();
      // Before, a drain that could not flush "succeeded" without closing, and the client went on
      // dialling for ever: a notifier stopped during an outage never exited.
      const client = (bus as unknown as { connection: BusConnection }).connection.current;
      expect(client?.isClosed()).toBe(true);
    } finally {
      await bus.close();
      await nats.stop();
    }
  }, 30_000);
});
