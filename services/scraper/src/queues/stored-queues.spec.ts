import { observedQueue } from './queue-observation.fixture';
import { StoredQueues } from './stored-queues';

describe('StoredQueues', () => {
  it('sends every queue at first, then by name those whose figures were written, and in full those that changed', () => {
    const stored = new StoredQueues();
    const a = observedQueue('a', { messageCount: 1 });
    const b = observedQueue('b');
    expect(stored.split([a, b])).toEqual({ changed: [a, b], stored: [] });
    stored.wrote([a, b]);

    const b2 = { ...b, messagesAdded: b.messagesAdded + 1 };
    const c = observedQueue('c');
    // A copy with the same figures is as stored, whichever object it is.
    expect(stored.split([{ ...a }, b2, c])).toEqual({ changed: [b2, c], stored: ['a'] });
  });

  it('tells apart every figure a snapshot holds, the oldest message by its time', () => {
    const stored = new StoredQueues();
    const q = observedQueue('q', { firstMessageAt: new Date(1_000) });
    stored.wrote([q]);
    const changes: Partial<typeof q>[] = [
      { messageCount: 9 },
      { messagesAdded: 9 },
      { messagesAcknowledged: 9 },
      { consumerCount: 9 },
      { deliveringCount: 9 },
      { messagesExpired: 9 },
      { messagesKilled: 9 },
      { paused: !q.paused },
      { durable: !q.durable },
      { temporary: !q.temporary },
      { address: 'elsewhere' },
      { routingType: 'MULTICAST' },
      { firstMessageAt: new Date(2_000) },
      { firstMessageAt: null },
    ];
    for (const change of changes) expect(stored.split([{ ...q, ...change }]).stored).toEqual([]);
    expect(stored.split([{ ...q, firstMessageAt: new Date(1_000) }]).stored).toEqual(['q']);
  });

  it('knows only what the last written tick held, and nothing once told to forget', () => {
    const stored = new StoredQueues();
    const a = observedQueue('a');
    const b = observedQueue('b');
    stored.wrote([a, b]);
    // b went unread at the next tick: its snapshot's sample was ended, so it is sent in full again.
    stored.wrote([a]);
    expect(stored.split([a, b])).toEqual({ changed: [b], stored: ['a'] });
    stored.forget();
    expect(stored.split([a, b])).toEqual({ changed: [a, b], stored: [] });
  });
});
