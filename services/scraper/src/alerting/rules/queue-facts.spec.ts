import type { QueueObservation } from '../../queues/queue-observation';
import { observedQueue } from '../../queues/queue-observation.fixture';
import { QueueFactBuilder } from './queue-facts';

const observed = observedQueue;
const at = (seconds: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, seconds));

describe('queue facts from what a tick read', () => {
  const one = (nodeId: string, queue: QueueObservation) => ({
    nodeId,
    queues: [queue],
    unread: [],
    addresses: null,
  });

  it('knows no rate at first sight, then each counter per second since the last tick', () => {
    const sut = new QueueFactBuilder();
    expect(
      sut.build([one('a', observed('q', { messagesAdded: 100 }))], at(0)).get('q')?.addedPerSecond,
    ).toBeNull();
    const second = sut
      .build([one('a', observed('q', { messagesAdded: 150, messagesKilled: 5 }))], at(5))
      .get('q');
    expect(second).toMatchObject({ addedPerSecond: 10, killedPerSecond: 1, acknowledgedPerSecond: 0 });
  });

  it('counts the messages on the nodes where the queue has no consumer', () => {
    const facts = new QueueFactBuilder().build(
      [
        one('a', observed('q', { messageCount: 2, consumerCount: 1 })),
        one('b', observed('q', { messageCount: 10, consumerCount: 0 })),
        one('c', observed('q', { messageCount: 5, consumerCount: 0 })),
      ],
      at(0),
    );
    expect(facts.get('q')).toMatchObject({ messageCount: 17, consumerCount: 1, unconsumedMessages: 15 });
  });

  it('sums a queue over its nodes, the oldest head of them, and a rate only when every node knows its own', () => {
    const sut = new QueueFactBuilder();
    const early = new Date(Date.UTC(2026, 11, 1, 9, 0, 0));
    const tick = (added: number, nodes: string[]) =>
      sut
        .build(
          nodes.map((nodeId, i) =>
            one(
              nodeId,
              observed('q', {
                messageCount: 3,
                messagesAdded: added,
                firstMessageAt: i === 0 ? at(0) : early,
              }),
            ),
          ),
          at(added / 10),
        )
        .get('q');
    tick(10, ['a']);
    expect(tick(20, ['a', 'b'])).toMatchObject({
      messageCount: 6,
      firstMessageAt: early,
      addedPerSecond: null,
    });
    expect(tick(30, ['a', 'b'])?.addedPerSecond).toBe(20);
  });

  it('knows no rate after a counter went back (the broker restarted)', () => {
    const sut = new QueueFactBuilder();
    sut.build([one('a', observed('q', { messagesAdded: 100 }))], at(0));
    expect(
      sut.build([one('a', observed('q', { messagesAdded: 3 }))], at(5)).get('q')?.addedPerSecond,
    ).toBeNull();
  });

  it('marks a queue listed but not read as stale, rather than gone', () => {
    const sut = new QueueFactBuilder();
    expect(
      sut.build([{ nodeId: 'a', queues: [], unread: ['q'], addresses: null }], at(0)).get('q'),
    ).toMatchObject({
      stale: true,
    });
  });

  it('forgets a queue that went: back later, its first rate is unknown, not one spanning its absence', () => {
    const sut = new QueueFactBuilder();
    const tick = (seconds: number, queues: QueueObservation[]) =>
      sut.build([{ nodeId: 'a', queues, unread: [], addresses: null }], at(seconds));
    tick(0, [observed('q', { messagesAdded: 10 }), observed('r')]);
    expect(tick(5, [observed('r')]).has('q')).toBe(false);
    expect(
      tick(10, [observed('q', { messagesAdded: 500 }), observed('r')]).get('q')?.addedPerSecond,
    ).toBeNull();
    expect(tick(15, [observed('q', { messagesAdded: 550 }), observed('r')]).get('q')?.addedPerSecond).toBe(
      10,
    );
  });

  it('keeps one index of the queues while none appears or goes, and a new one when one does', () => {
    const sut = new QueueFactBuilder();
    const node = (...names: string[]) => [
      { nodeId: 'a', queues: names.map((n) => observed(n)), unread: [], addresses: null },
    ];
    const first = sut.indexed(node('a.1', 'a.2', 'b'), at(0));
    expect(first.select('a.*').map((q) => q.name)).toEqual(['a.1', 'a.2']);
    expect(sut.indexed(node('a.1', 'a.2', 'b'), at(5))).toBe(first);
    const next = sut.indexed(node('a.1', 'b', 'a.3'), at(10));
    expect(next).not.toBe(first);
    expect(next.select('a.*').map((q) => q.name)).toEqual(['a.1', 'a.3']);
  });
});
