import { observedQueue } from './queue-observation.fixture';
import { StoredQueues } from './stored-queues';

const at = (seconds: number) => new Date(Date.UTC(2026, 11, 4, 1, 0, seconds));

describe('StoredQueues', () => {
  it('sends every queue at first, then by name those whose figures were written, and in full those that changed', () => {
    const stored = new StoredQueues();
    const a = observedQueue('a', { messageCount: 1 });
    const b = observedQueue('b');
    expect(stored.split([a, b], at(15))).toEqual({ changed: [a, b], stored: [] });
    stored.wrote([a, b]);

    const b2 = { ...b, messagesAdded: b.messagesAdded + 1 };
    const c = observedQueue('c');
    // A copy with the same figures is as stored, whichever object it is.
    expect(stored.split([{ ...a }, b2, c], at(30))).toEqual({ changed: [b2, c], stored: ['a'] });
  });

  it('tells apart every figure a snapshot holds, the oldest message by its time', () => {
    const stored = new StoredQueues();
    const q = observedQueue('q', { firstMessageAt: new Date(1_000) });
    stored.split([q], at(0));
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
    for (const change of changes) expect(stored.split([{ ...q, ...change }], at(45)).stored).toEqual([]);
    expect(stored.split([{ ...q, firstMessageAt: new Date(1_000) }], at(60)).stored).toEqual(['q']);
  });

  it('sends every queue again once the heartbeat has passed since it last did, and once told to forget', () => {
    const stored = new StoredQueues(60_000);
    const a = observedQueue('a');
    const all = { changed: [a], stored: [] };
    const byName = { changed: [], stored: ['a'] };
    const tick = (seconds: number, written = true) => {
      const split = stored.split([a], at(seconds));
      if (written) stored.wrote([a]);
      return split;
    };
    expect(tick(0)).toEqual(all);
    expect(tick(15)).toEqual(byName);
    expect(tick(45)).toEqual(byName);
    // Its statement failed: the next tick sends all again.
    expect(tick(60, false)).toEqual(all);
    expect(tick(75)).toEqual(all);
    expect(tick(90)).toEqual(byName);
    expect(tick(134)).toEqual(byName);
    expect(tick(135)).toEqual(all);
    stored.forget();
    expect(tick(150)).toEqual(all);
    expect(tick(165)).toEqual(byName);
  });

  it('knows only what the last written tick held, and nothing once told to forget', () => {
    const stored = new StoredQueues();
    const a = observedQueue('a');
    const b = observedQueue('b');
    stored.split([a, b], at(0));
    stored.wrote([a, b]);
    // b went unread at the next tick: its snapshot's sample was ended, so it is sent in full again.
    stored.wrote([a]);
    expect(stored.split([a, b], at(75))).toEqual({ changed: [b], stored: ['a'] });
    stored.forget();
    expect(stored.split([a, b], at(90))).toEqual({ changed: [a, b], stored: [] });
  });
});
