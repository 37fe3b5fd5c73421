import type { Delivery } from '@artemis-studio/bus';
import type { BrokerEvent, RawBrokerEvent } from '@artemis-studio/contracts';
import { IntakeBuffer } from '../intake/intake-buffer';
import { BatchWriter } from './batch-writer';

const event = (id: string) => ({ eventId: id }) as RawBrokerEvent;
const delivery = (streamSeq: number) =>
  ({ subject: 's', streamSeq, redeliveryCount: 0, ack: jest.fn(), nak: jest.fn() }) as Delivery & {
    ack: jest.Mock;
  };

describe('BatchWriter', () => {
  let seq = 0;
  const store = async (events: RawBrokerEvent[]) => events.map((e) => ({ ...e, seq: ++seq }) as BrokerEvent);

  it('batches what accumulated, acknowledges after the commit and publishes in seq order', async () => {
    const buffer = new IntakeBuffer(() => 100);
    const deliveries = [1, 2, 3].map(delivery);
    deliveries.forEach((d, i) => buffer.offer(event(`e${i}`), d));
    const inserts: number[] = [];
    const stored: BrokerEvent[] = [];
    const sut = new BatchWriter({
      buffer,
      writer: { insert: async (events) => (inserts.push(events.length), store(events)) },
      stored: (events) => {
        stored.push(...events);
        // Stopping finishes the batch already in flight, and nothing after it.
        sut.stop();
        buffer.offer(event('late'), delivery(4));
      },
      poisoned: jest.fn(),
      maxBatch: 2,
      flushMs: () => 10,
    });
    await sut.run();
    expect(inserts).toEqual([2, 1]);
    expect(deliveries.map((d) => d.ack.mock.calls.length)).toEqual([1, 1, 1]);
    expect(buffer.size).toBe(1);
    expect(stored.map((e) => e.eventId)).toEqual(['e0', 'e1', 'e2']);
  });

  it('writes the next batch while the last one is acknowledged, never acknowledging before a commit', async () => {
    const buffer = new IntakeBuffer(() => 100);
    const log: string[] = [];
    const ackLogged = (streamSeq: number) => ({
      ...delivery(streamSeq),
      ack: () => log.push(`ack ${streamSeq}`),
    });
    [1, 2, 3, 4].forEach((n) => buffer.offer(event(`e${n}`), ackLogged(n)));
    const sut = new BatchWriter({
      buffer,
      writer: {
        insert: async (events) => {
          log.push(`insert ${events.map((e) => e.eventId).join(',')}`);
          await new Promise((r) => setTimeout(r, 5));
          log.push(`commit ${events.map((e) => e.eventId).join(',')}`);
          return store(events);
        },
      },
      stored: () => buffer.size === 0 && sut.stop(),
      poisoned: jest.fn(),
      maxBatch: 2,
      flushMs: () => 10,
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
    const sut = new BatchWriter({
      buffer,
      writer: {
        insert: async () => Promise.reject(Object.assign(new Error('terminated'), { code: '57P01' })),
      },
      stored: jest.fn(),
      poisoned: jest.fn(),
      maxBatch: 10,
      flushMs: () => 10,
    });
    await expect(sut.run()).rejects.toThrow('terminated');
    expect(d.ack).not.toHaveBeenCalled();
    expect(buffer.size).toBe(1);
  });

  it('isolates an event PostgreSQL refuses and writes the rest of its batch', async () => {
    const buffer = new IntakeBuffer(() => 100);
    const deliveries = [1, 2, 3].map(delivery);
    ['ok1', 'bad', 'ok2'].forEach((id, i) => buffer.offer(event(id), deliveries[i]));
    const poisoned: string[] = [];
    const stored: BrokerEvent[] = [];
    const sut = new BatchWriter({
      buffer,
      writer: {
        insert: async (events) => {
          if (events.some((e) => e.eventId === 'bad'))
            throw Object.assign(new Error('invalid byte sequence'), { code: '22021' });
          return store(events);
        },
      },
      stored: (events) => {
        stored.push(...events);
        sut.stop();
      },
      poisoned: (pending) => poisoned.push(pending.event.eventId),
      maxBatch: 10,
      flushMs: () => 10,
    });
    await sut.run();
    expect(stored.map((e) => e.eventId)).toEqual(['ok1', 'ok2']);
    expect(poisoned).toEqual(['bad']);
    expect(deliveries.every((d) => d.ack.mock.calls.length === 1)).toBe(true);
  });
});
