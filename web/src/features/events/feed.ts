import type { BrokerEvent } from '@artemis-studio/contracts';

/** Live events kept in memory for the feed; older ones are in the history. */
const LIVE_FEED_CAP = 1000;

export interface EventFilters {
  type?: string;
  address?: string;
  queue?: string;
  node?: string;
  consumer?: string;
}

/** The same filters the history query applies, for live events. */
export function matches(event: BrokerEvent, filters: EventFilters): boolean {
  return (
    (!filters.type || event.type === filters.type) &&
    (!filters.address || event.address === filters.address) &&
    (!filters.queue || event.queue === filters.queue) &&
    (!filters.node || event.node === filters.node) &&
    (!filters.consumer || event.consumer === filters.consumer)
  );
}

/** Adds live events to a newest-first list: deduplicated by seq, capped. */
export function addLive(
  feed: readonly BrokerEvent[],
  incoming: readonly BrokerEvent[],
  cap = LIVE_FEED_CAP,
): BrokerEvent[] {
  return mergeFeed(incoming, feed, cap);
}

/** Live and history as one newest-first feed: one row per seq, at most `cap` rows. */
export function mergeFeed(
  a: readonly BrokerEvent[],
  b: readonly BrokerEvent[],
  cap = Infinity,
): BrokerEvent[] {
  const bySeq = new Map<number, BrokerEvent>();
  for (const event of a) bySeq.set(event.seq, event);
  for (const event of b) if (!bySeq.has(event.seq)) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((x, y) => y.seq - x.seq).slice(0, cap);
}
