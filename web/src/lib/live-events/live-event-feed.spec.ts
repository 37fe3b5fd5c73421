import type { BrokerEvent, ReplayGapFrame } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { PauseSignal } from '../freshness/pause';
import { LiveEventFeed, mergeFeed } from './live-event-feed';

const event = (seq: number, over: Partial<BrokerEvent> = {}) =>
  ({
    seq,
    type: 'CONSUMER_CREATED',
    queue: 'q',
    receivedAt: `2026-12-01T10:00:0${seq % 10}Z`,
    ...over,
  }) as BrokerEvent;
const seqs = (events: readonly BrokerEvent[]) => events.map((e) => e.seq);

function setUp(cap?: number) {
  const pause = new PauseSignal();
  const sut = new LiveEventFeed(pause, cap, () => new Date('2026-12-01T10:05:00Z'));
  const stop = sut.followPause();
  return { pause, sut, stop };
}

describe('the live events a screen shows', () => {
  it('merges two newest-first lists, one row per seq', () => {
    expect(seqs(mergeFeed([event(9), event(7)], [event(8), event(7), event(3)]))).toEqual([9, 8, 7, 3]);
  });

  it('keeps the newest first, once per seq, at most the cap', () => {
    const { sut } = setUp(3);
    for (const seq of [1, 2, 3, 2, 4]) sut.receive(event(seq));
    expect(seqs(sut.get().events)).toEqual([4, 3, 2]);
  });

  it('shows only the events the screen selected, and starts afresh on a new selection', () => {
    const { sut } = setUp();
    sut.select((e) => e.queue === 'orders');
    sut.receive(event(1, { queue: 'orders' }));
    sut.receive(event(2, { queue: 'invoices' }));
    expect(seqs(sut.get().events)).toEqual([1]);
    sut.select((e) => e.queue === 'invoices');
    expect(sut.get().events).toEqual([]);
    sut.receive(event(3, { queue: 'invoices' }));
    expect(seqs(sut.get().events)).toEqual([3]);
  });

  it('moves nothing while paused, and brings what was held in on resume', () => {
    const { pause, sut } = setUp();
    sut.receive(event(1));
    pause.pause();
    const before = sut.get().events;
    sut.receive(event(2));
    sut.receive(event(3));
    expect(sut.get().events).toBe(before);
    expect(sut.get().held).toBe(2);
    pause.resume();
    expect(seqs(sut.get().events)).toEqual([3, 2, 1]);
    expect(sut.get().held).toBe(0);
  });

  it('holds at most the cap while paused, the newest', () => {
    const { pause, sut } = setUp(2);
    pause.pause();
    for (const seq of [1, 2, 3, 4]) sut.receive(event(seq));
    expect(sut.get().held).toBe(2);
    pause.resume();
    expect(seqs(sut.get().events)).toEqual([4, 3]);
  });

  it('drops what it held when the selection changes while paused', () => {
    const { pause, sut } = setUp();
    pause.pause();
    sut.receive(event(1));
    sut.select(() => true);
    expect(sut.get().held).toBe(0);
    pause.resume();
    expect(sut.get().events).toEqual([]);
  });

  it('dates a replay gap from the newest event heard, whether the screen shows it or not', () => {
    const { sut } = setUp();
    sut.select((e) => e.queue === 'orders');
    sut.receive(event(5, { queue: 'other', brokerTs: '2026-12-01T10:04:00Z' }));
    const frame = { missed: 12, reason: 'replay-cap' } as ReplayGapFrame;
    sut.gap(frame);
    expect(sut.get().gaps).toEqual([{ frame, from: '2026-12-01T10:04:00Z', to: '2026-12-01T10:05:00.000Z' }]);
  });

  it('tells its subscribers of every change, and stops following the pause when told', () => {
    const { pause, sut, stop } = setUp();
    let changes = 0;
    sut.subscribe(() => changes++);
    sut.receive(event(1));
    expect(changes).toBe(1);
    stop();
    pause.pause();
    sut.receive(event(2));
    expect(changes).toBe(2);
    pause.resume();
    expect(seqs(sut.get().events)).toEqual([1]);
  });
});
