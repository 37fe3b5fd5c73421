import { UNOBSERVED_EVENT_TYPE, type BrokerEvent } from '@artemis-studio/contracts';

/** Live events kept in memory for the feed; older ones are in the history. */
const LIVE_FEED_CAP = 1000;

export interface EventFilters {
  type?: string;
  address?: string;
  queue?: string;
  node?: string;
  consumer?: string;
}

export const FILTER_FIELDS = ['type', 'address', 'queue', 'node', 'consumer'] as const;

/** Whether any filter narrows the feed (a time window alone does not). */
export const isFiltered = (filters: EventFilters): boolean => FILTER_FIELDS.some((key) => filters[key]);

/**
 * The same filters the history query applies, for live events. An unobserved period (ADR-0010)
 * passes every filter: the notifications it stands for may have been of any type, queue or node,
 * and a filtered feed without it would read as "nothing happened" where Studio did not look.
 */
export function matches(event: BrokerEvent, filters: EventFilters): boolean {
  if (event.type === UNOBSERVED_EVENT_TYPE) return true;
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

/**
 * A filtered history with the cluster's unobserved periods set among its rows. Only periods newer
 * than the oldest row read so far, unless the history is read to its end: an older one would sit
 * directly under rows it does not follow until the page holding its neighbours is read.
 */
export function withUnobserved(
  rows: readonly BrokerEvent[],
  periods: readonly BrokerEvent[],
  complete: boolean,
): BrokerEvent[] {
  const oldest = rows.at(-1)?.seq;
  const placed = complete ? periods : periods.filter((p) => oldest !== undefined && p.seq > oldest);
  return mergeFeed(rows, placed);
}
