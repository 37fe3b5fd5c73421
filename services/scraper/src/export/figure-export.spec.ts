import type { QueueObservation } from '../queues/queue-observation';
import { observedQueue } from '../queues/queue-observation.fixture';
import { exportedAddresses, exportedQueues } from './figure-export';

const observed = (name: string, messageCount: number, over: Partial<QueueObservation> = {}) =>
  observedQueue(name, {
    messageCount,
    consumerCount: 1,
    messagesAdded: 10,
    messagesAcknowledged: 5,
    ...over,
  });
const now = new Date('2026-12-01T10:00:00Z');

describe('the queues exported to Prometheus', () => {
  it('sums each queue over its nodes, counters included, with the age of the oldest head', () => {
    const { queues } = exportedQueues(
      [
        {
          nodeId: 'a',
          queues: [observed('orders', 3, { firstMessageAt: new Date('2026-12-01T09:59:00Z') })],
          unread: [],
          addresses: null,
        },
        {
          nodeId: 'b',
          queues: [observed('orders', 2, { firstMessageAt: new Date('2026-12-01T09:58:00Z') })],
          unread: [],
          addresses: null,
        },
      ],
      10,
      now,
    );
    expect(queues).toEqual([
      {
        name: 'orders',
        messages: 5,
        consumers: 2,
        delivering: 0,
        added: 20,
        acknowledged: 10,
        killed: 0,
        expired: 0,
        oldestAgeSeconds: 120,
      },
    ]);
  });

  it('keeps the deepest up to the cap, in a stable order, and says how many were left out', () => {
    const read = [
      {
        nodeId: 'a',
        queues: [observed('b', 5), observed('a', 5), observed('c', 9), observed('d', 0)],
        unread: [],
        addresses: null,
      },
    ];
    const { queues, left } = exportedQueues(read, 3, now);
    expect(queues.map((q) => q.name)).toEqual(['c', 'a', 'b']);
    expect(left).toBe(1);
  });

  it('says no age for an empty queue, or one whose head the broker does not date', () => {
    const { queues } = exportedQueues(
      [{ nodeId: 'a', queues: [observed('e', 0), observed('f', 4)], unread: [], addresses: null }],
      5,
      now,
    );
    expect(queues.map((q) => q.oldestAgeSeconds)).toEqual([null, null]);
  });
});

describe('the addresses exported to Prometheus', () => {
  const address = (name: string, sizeBytes: number, limitFraction: number | null, paging = false) => ({
    name,
    sizeBytes,
    paging,
    pages: paging ? 2 : 0,
    limitFraction,
  });

  it('sums each over its nodes, pages on any node, the fullest limit; the largest kept, the rest counted', () => {
    const { addresses, left } = exportedAddresses(
      [
        { addresses: [address('orders', 100, 0.1), address('audit', 5, null)], unread: [] },
        { addresses: [address('orders', 300, 0.3, true), address('dlq', 50, 0.05)], unread: [] },
      ],
      2,
    );
    expect(addresses).toEqual([
      { name: 'orders', sizeBytes: 400, paging: 1, pages: 2, limitRatio: 0.3 },
      { name: 'dlq', sizeBytes: 50, paging: 0, pages: 0, limitRatio: 0.05 },
    ]);
    expect(left).toBe(1);
  });
});
