import type { Bus } from '@artemis-studio/bus';
import { UNOBSERVED_EVENT_TYPE, type DropReport, type RawBrokerEvent } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { CreditGate } from './credit-gate';
import { EventPublisher } from './event-publisher';

const event = (clusterId: string): RawBrokerEvent => ({
  eventId: randomUUID(),
  clusterId,
  node: 'a',
  type: 'CONSUMER_CREATED',
  brokerTs: null,
  receivedAt: new Date().toISOString(),
  address: null,
  queue: null,
  consumer: null,
  session: null,
  connection: null,
  remoteAddress: null,
  user: null,
  props: {},
});

/** An event and its encoding, as the normaliser hands them over. */
const encoded = (e: RawBrokerEvent): [RawBrokerEvent, string] => [e, JSON.stringify(e)];

/** A stream and event store that can be switched off, deduplicating by id like JetStream and the store do. */
class FakeStream implements Pick<Bus, 'publishDurableJson' | 'request'> {
  up = true;
  readonly ids = new Set<string>();
  readonly events: RawBrokerEvent[] = [];
  readonly reports: DropReport[] = [];
  /** Groups of publishes made in one go (one synchronous run): each is one write to NATS. */
  batches = 0;
  private batchOpen = false;
  async publishDurableJson(
    channel: { name: string },
    _subject: string,
    json: string,
    { msgId }: { msgId: string },
  ) {
    if (!this.batchOpen) {
      this.batchOpen = true;
      this.batches++;
      queueMicrotask(() => (this.batchOpen = false));
    }
    await Promise.resolve();
    if (!this.up) throw new Error('no connection');
    const duplicate = this.ids.has(msgId);
    if (!duplicate) {
      this.ids.add(msgId);
      this.events.push(JSON.parse(json) as RawBrokerEvent);
    }
    void channel;
    return { seq: this.ids.size, duplicate };
  }
  /** The event store's record-drops RPC, idempotent per reportId. */
  async request(_rpc: unknown, report: unknown): Promise<never> {
    await Promise.resolve();
    if (!this.up) throw new Error('no responders');
    const r = report as DropReport;
    if (!this.ids.has(r.reportId)) {
      this.ids.add(r.reportId);
      this.reports.push(r);
    }
    return { dropped: this.reports.reduce((n, x) => n + x.count, 0) } as never;
  }
}

const quiet = { warn: () => undefined };
const noMetrics = { published: () => undefined, dropped: () => undefined, buffered: () => undefined };
const until = async (condition: () => boolean) => {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
};

describe('EventPublisher', () => {
  it('accepts a notification only once its event is on the stream; at a stop a ring keeps the rest, uncounted', async () => {
    const stream = new FakeStream();
    const dropped: number[] = [];
    const sut = new EventPublisher(
      stream,
      () => 1000,
      { ...noMetrics, dropped: (_c, n) => void dropped.push(n) },
      quiet,
    );
    const accepted: string[] = [];
    const receipt = (id: string, kept: boolean) => ({ kept, accept: () => void accepted.push(id) });
    const first = event('c1');
    sut.enqueue(first, JSON.stringify(first), receipt('first', true));
    await until(() => accepted.length === 1);
    expect(stream.events).toEqual([first]);

    stream.up = false;
    sut.enqueue(...encoded(event('c1')), receipt('ring', true));
    sut.enqueue(...encoded(event('c1')), receipt('temporary', false));
    await sut.stop(50);
    // Neither reached the stream, so neither was accepted: the ring's goes to the next owner and
    // is no loss; the temporary subscription's is gone with it, and counted.
    expect(accepted).toEqual(['first']);
    expect(dropped).toEqual([1]);
  });

  it('publishes every event in order', async () => {
    const stream = new FakeStream();
    const sut = new EventPublisher(stream, () => 1000, noMetrics, quiet);
    const sent = Array.from({ length: 600 }, () => event('c1'));
    sent.forEach((e) => sut.enqueue(e, JSON.stringify(e)));
    await until(() => stream.events.length === 600);
    expect(stream.events.map((e) => e.eventId)).toEqual(sent.map((e) => e.eventId));
    await sut.stop();
  });

  it('holds events while the stream is away and delivers them once it is back', async () => {
    const stream = new FakeStream();
    stream.up = false;
    const sut = new EventPublisher(stream, () => 100, noMetrics, quiet);
    const sent = Array.from({ length: 50 }, () => event('c1'));
    sent.forEach((e) => expect(sut.enqueue(e, JSON.stringify(e))).toBe(true));
    await new Promise((r) => setTimeout(r, 100));
    stream.up = true;
    await until(() => stream.events.length === 50);
    expect(stream.events.map((e) => e.eventId)).toEqual(sent.map((e) => e.eventId));
    await sut.stop();
  });

  it('counts what overflows per cluster and reports it exactly once', async () => {
    const stream = new FakeStream();
    stream.up = false;
    const dropped: Record<string, number> = {};
    const metrics = {
      ...noMetrics,
      dropped: (c: string, n: number) => void (dropped[c] = (dropped[c] ?? 0) + n),
    };
    const sut = new EventPublisher(stream, () => 10, metrics, quiet);
    for (let i = 0; i < 15; i++) sut.enqueue(...encoded(event('c1')));
    for (let i = 0; i < 3; i++) sut.enqueue(...encoded(event('c2')));
    expect(dropped).toEqual({ c1: 5, c2: 3 });
    expect(sut.pendingDrops()).toEqual(
      new Map([
        ['c1', 5],
        ['c2', 3],
      ]),
    );

    stream.up = true;
    await until(() => stream.events.length === 10 && stream.reports.length === 2);
    expect(Object.fromEntries(stream.reports.map((r) => [r.clusterId, r.count]))).toEqual({ c1: 5, c2: 3 });
    expect(sut.pendingDrops().size).toBe(0);
    await sut.stop();
  });

  it('takes the record of an unobserved period when full, and never drops it', async () => {
    const stream = new FakeStream();
    stream.up = false;
    const dropped: string[] = [];
    const metrics = { ...noMetrics, dropped: (c: string) => void dropped.push(c) };
    const sut = new EventPublisher(stream, () => 10, metrics, quiet);
    for (let i = 0; i < 10; i++) sut.enqueue(...encoded(event('c1')));
    const unobserved = { ...event('c2'), type: UNOBSERVED_EVENT_TYPE };
    sut.enqueueUnobserved(unobserved);
    expect(sut.enqueue(...encoded(event('c1')))).toBe(false);
    expect(dropped).toEqual(['c1']);

    stream.up = true;
    await until(() => stream.events.length === 11);
    expect(stream.events.map((e) => e.eventId)).toContain(unobserved.eventId);
    await sut.stop();
  });

  it('keeps the room of credit already granted when a record of an unobserved period comes in', async () => {
    const stream = new FakeStream();
    stream.up = false;
    const dropped: string[] = [];
    const metrics = { ...noMetrics, dropped: (c: string) => void dropped.push(c) };
    const gate = new CreditGate({ capacity: 10, holdLimitMs: 60_000 });
    const sut = new EventPublisher(stream, () => 10, metrics, quiet, gate);
    expect(gate.take(10)).toBe(10);
    for (let i = 0; i < 9; i++) {
      gate.used();
      sut.enqueue(...encoded(event('c1')));
    }
    sut.enqueueUnobserved({ ...event('c2'), type: UNOBSERVED_EVENT_TYPE });
    // The tenth credited notification still has its place, and the pool is not overdrawn.
    gate.used();
    expect(sut.enqueue(...encoded(event('c1')))).toBe(true);
    expect(dropped).toEqual([]);
    expect(gate.take(1)).toBe(0);

    stream.up = true;
    await until(() => stream.events.length === 11);
    expect(gate.take(10)).toBe(10);
    await sut.stop();
  });

  it('counts what it cannot flush on stop as dropped, never losing it silently', async () => {
    const stream = new FakeStream();
    stream.up = false;
    const sut = new EventPublisher(stream, () => 100, noMetrics, quiet);
    for (let i = 0; i < 4; i++) sut.enqueue(...encoded(event('c1')));
    await sut.stop(50);
    expect(sut.pendingDrops()).toEqual(new Map([['c1', 4]]));
  });

  it('frees the credit pool as the stream acknowledges what it holds', async () => {
    const stream = new FakeStream();
    stream.up = false;
    const gate = new CreditGate({ capacity: 100, holdLimitMs: 60_000 });
    const sut = new EventPublisher(stream, () => 100, noMetrics, quiet, gate);
    expect(gate.take(100)).toBe(100);
    for (let i = 0; i < 100; i++) {
      gate.used();
      sut.enqueue(...encoded(event('c1')));
    }
    // Everything granted is buffered: nothing more until the stream takes some.
    expect(gate.take(10)).toBe(0);
    const granted = new Promise<void>((resolve) => gate.whenOpen(resolve));
    stream.up = true;
    await granted;
    await until(() => stream.events.length === 100);
    expect(gate.take(10)).toBe(10);
    await sut.stop();
  });

  it('publishes events that arrive together as one batch, after a short linger', async () => {
    const stream = new FakeStream();
    const sut = new EventPublisher(stream, () => 1000, noMetrics, quiet);
    sut.enqueue(...encoded(event('c1')));
    sut.enqueue(...encoded(event('c1')));
    sut.enqueue(...encoded(event('c2')));
    expect(stream.batches).toBe(0);
    await until(() => stream.events.length === 3);
    expect(stream.batches).toBe(1);
    await sut.stop();
  });
});
