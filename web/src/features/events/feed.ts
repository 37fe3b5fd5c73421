import { UNOBSERVED_EVENT_TYPE, type BrokerEvent } from '@artemis-studio/contracts';
import { mergeFeed } from '../../lib/live-events/live-event-feed';

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
