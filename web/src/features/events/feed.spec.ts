import type { BrokerEvent } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { addLive, matches, mergeFeed } from './feed';

const event = (seq: number, over: Partial<BrokerEvent> = {}) =>
  ({ seq, type: 'CONSUMER_CREATED', queue: 'q', ...over }) as BrokerEvent;
const seqs = (events: BrokerEvent[]) => events.map((e) => e.seq);

describe('the events feed', () => {
  it('merges live and history newest first, one row per seq', () => {
    expect(seqs(mergeFeed([event(9), event(7)], [event(8), event(7), event(3)]))).toEqual([9, 8, 7, 3]);
  });

  it('keeps at most the cap, dropping the oldest', () => {
    const feed = Array.from({ length: 10 }, (_, i) => event(i + 1));
    expect(seqs(addLive(feed, [event(11), event(12)], 5))).toEqual([12, 11, 10, 9, 8]);
  });

  it('applies the history filters to live events', () => {
    expect(matches(event(1), { type: 'CONSUMER_CREATED', queue: 'q' })).toBe(true);
    expect(matches(event(1), { type: 'CONSUMER_CLOSED' })).toBe(false);
    expect(matches(event(1, { node: 'a' }), { node: 'b' })).toBe(false);
  });
});
