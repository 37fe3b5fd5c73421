import { UNOBSERVED_EVENT_TYPE, type BrokerEvent } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { isFiltered, matches, withUnobserved } from './feed';

const event = (seq: number, over: Partial<BrokerEvent> = {}) =>
  ({ seq, type: 'CONSUMER_CREATED', queue: 'q', ...over }) as BrokerEvent;
const seqs = (events: BrokerEvent[]) => events.map((e) => e.seq);

describe('the events feed', () => {
  it('applies the history filters to live events', () => {
    expect(matches(event(1), { type: 'CONSUMER_CREATED', queue: 'q' })).toBe(true);
    expect(matches(event(1), { type: 'CONSUMER_CLOSED' })).toBe(false);
    expect(matches(event(1, { node: 'a' }), { node: 'b' })).toBe(false);
  });

  it('lets an unobserved period through every filter', () => {
    const period = event(1, { type: UNOBSERVED_EVENT_TYPE, queue: null, node: 'notifier' });
    expect(matches(period, { type: 'CONSUMER_CLOSED', queue: 'orders', node: 'a' })).toBe(true);
  });

  it('counts a time window alone as unfiltered', () => {
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ queue: 'orders' })).toBe(true);
  });

  it('sets periods among the rows read, not below them until the history is read to its end', () => {
    const rows = [event(40), event(30), event(20)];
    const periods = [event(35, { type: UNOBSERVED_EVENT_TYPE }), event(10, { type: UNOBSERVED_EVENT_TYPE })];
    expect(seqs(withUnobserved(rows, periods, false))).toEqual([40, 35, 30, 20]);
    expect(seqs(withUnobserved(rows, periods, true))).toEqual([40, 35, 30, 20, 10]);
    expect(seqs(withUnobserved([], periods, true))).toEqual([35, 10]);
    expect(seqs(withUnobserved([], periods, false))).toEqual([]);
  });
});
