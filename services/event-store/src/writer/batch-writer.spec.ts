import { sleep } from '@artemis-studio/timing';
import type { Delivery } from '@artemis-studio/bus';
import type { RawBrokerEvent } from '@artemis-studio/contracts';
import { IntakeBuffer } from '../intake/intake-buffer';
import { BatchWriter, type BatchWriterDeps, type StoredEvent } from './batch-writer';

const event = (id: string) => ({ eventId: id }) as RawBrokerEvent;
/** The delivery of event `id`; the writer is given its body as received. */
const delivery = (streamSeq: number, id = `e${streamSeq - 1}`) =>
  ({
    subject: 's',
    json: JSON.stringify({ eventId: id }),
    data: Buffer.from(JSON.stringify({ eventId: id })),
    streamSeq,
    deliveryCount: 1,
    ack: jest.fn(),
    nak: jest.fn(),
  }) as Delivery & { ack: jest.Mock };
const idsOf = (rawJson: readonly string[]) =>
  rawJson.map((json) => (JSON.parse(json) as RawBrokerEvent).eventId);
const storedIds = (events: StoredEvent[]) => events.map((e) => e.pending.event.eventId);
/** A writer over `buffer`; what a test does not name does nothing. */
const batchWriter = (deps: Pick<BatchWriterDeps, 'buffer' | 'writer'> & Partial<BatchWriterDeps>) =>
  new BatchWriter({
    stored: jest.fn(),
    poisoned: jest.fn(),
    maxBatch: 10,
    flushMs: () => 10,
    gatherMs: 0,
    ...deps,
  });

describe('BatchWriter', () => {
  let seq = 0;
  // As PostgreSQL answers: ids in lower case.
  const store = async (rawJson: readonly string[]) =>
    idsOf(rawJson).map((eventId) => ({ eventId: eventId.toLowerCase(), seq: ++seq, prevSeq: seq - 1 }));

  it('batches what accumulated, acknowledges after the commit and publishes in seq order', async () => {
    const buffer = new IntakeBuffer(() => 100);
    const deliveries = [1, 2, 3].map((n) => delivery(n));
    deliveries.forEach((d, i) => buffer.offer(event(`e${i}`), d));
    const inserts: number[] = [];
    const stored: StoredEvent[] = [];
    const sut = batchWriter({
      buffer,
      writer: { insert: async (rawJson) => (inserts.push(rawJson.length), store(rawJson)) },
      stored: (events) => {
        stored.push(...events);
        // Stopping finishes the batch already in flight, and nothing after it.
        sut.stop();
        buffer.offer(event('late'), delivery(4, 'late'));
      },
      maxBatch: 2,
    });
    await sut.run();
    expect(inserts).toEqual([2, 1]);
    expect(deliveries.map((d) => d.ack.mock.calls.length)).toEqual([1, 1, 1]);
    expect(buffer.size).toBe(1);
    expect(storedIds(stored)).toEqual(['e0', 'e1', 'e2']);
    expect(stored.map((e) => e.seq)).toEqual([...stored.map((e) => e.seq)].sort((a, b) => a - b));
  });

  it('writes the next batch while the last one is acknowledged, never acknowledging before a commit', async () => {
    const buffer = new IntakeBuffer(() => 100);
    const log: string[] = [];
    const ackLogged = (streamSeq: number) => ({
      ...delivery(streamSeq, `e${streamSeq}`),
      ack: () => log.push(`ack ${streamSeq}`),
    });
    [1, 2, 3, 4].forEach((n) => buffer.offer(event(`e${n}`), ackLogged(n)));
    const sut = batchWriter({
      buffer,
      writer: {
        insert: async (rawJson) => {
          log.push(`insert ${idsOf(rawJson).join(',')}`);
          await new Promise((r) => setTimeout(r, 5));
          log.push(`commit ${idsOf(rawJson).join(',')}`);
          return store(rawJson);
        },
      },
      stored: () => buffer.size === 0 && sut.stop(),
      maxBatch: 2,
    });
    await sut.run();
    expect(log).toEqual([
      'insert e1,e2',
      'commit e1,e2',
      'insert e3,e4',
      'ack 1',
      'ack 2',
      'commit e3,e4',
      'ack 3',
      'ack 4',
    ]);
  });

  it('acknowledges nothing and stops its term when the writer connection fails', async () => {
    const buffer = new IntakeBuffer(() => 100);
    const d = delivery(1);
    buffer.offer(event('e'), d);
    const sut = batchWriter({
      buffer,
      writer: {
        insert: async () => Promise.reject(Object.assign(new Error('terminated'), { code: '57P01' })),
      },
    });
    await expect(sut.run()).rejects.toThrow('terminated');
    expect(d.ack).not.toHaveBeenCalled();
    expect(buffer.size).toBe(1);
  });

  it('isolates an event PostgreSQL refuses and writes the rest of its batch', async () => {
    const buffer = new IntakeBuffer(() => 100);
    const ids = ['ok1', 'bad', 'OK2'];
    const deliveries = ids.map((id, i) => delivery(i + 1, id));
    ids.forEach((id, i) => buffer.offer(event(id), deliveries[i]));
    const poisoned: string[] = [];
    const stored: StoredEvent[] = [];
    const sut = batchWriter({
      buffer,
      writer: {
        insert: async (rawJson) => {
          if (idsOf(rawJson).includes('bad'))
            throw Object.assign(new Error('invalid byte sequence'), { code: '22021' });
          return store(rawJson);
        },
      },
      stored: (events) => {
        stored.push(...events);
        sut.stop();
      },
      poisoned: (pending) => poisoned.push(pending.event.eventId),
    });
    await sut.run();
    expect(storedIds(stored)).toEqual(['ok1', 'OK2']);
    expect(poisoned).toEqual(['bad']);
    expect(deliveries.every((d) => d.ack.mock.calls.length === 1)).toBe(true);
  });

  it('lets the writer skip its duplicate check only for a batch of first deliveries', async () => {
    const buffer = new IntakeBuffer(() => 100);
    buffer.offer(event('e0'), delivery(1));
    const checks: boolean[] = [];
    const sut = batchWriter({
      buffer,
      writer: {
        insert: async (rawJson, { mayBeStored } = {}) => {
          checks.push(mayBeStored ?? true);
          if (checks.length === 1) buffer.offer(event('e1'), { ...delivery(2), deliveryCount: 2 });
          return store(rawJson);
        },
      },
      stored: () => buffer.size === 0 && sut.stop(),
    });
    await sut.run();
    expect(checks).toEqual([false, true]);
  });

  it('takes the rest of a burst into the batch its first event starts, but no more than a batch', async () => {
    const buffer = new IntakeBuffer(() => 100);
    const inserts: number[] = [];
    const sut = batchWriter({
      buffer,
      writer: { insert: async (rawJson) => (inserts.push(rawJson.length), store(rawJson)) },
      stored: () => {
        if (inserts.length === 2) sut.stop();
      },
      maxBatch: 4,
      gatherMs: 50,
    });
    const running = sut.run();
    buffer.offer(event('e0'), delivery(1));
    await sleep(10);
    expect(inserts).toEqual([]);
    for (let n = 2; n <= 6; n++) buffer.offer(event(`e${n - 1}`), delivery(n));
    await running;
    expect(inserts).toEqual([4, 2]);
  });
});
