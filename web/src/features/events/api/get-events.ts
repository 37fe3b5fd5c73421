import { EventsPageSchema, UNOBSERVED_EVENT_TYPE } from '@artemis-studio/contracts';
import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { EventFilters } from '../feed';

/** The feed's filters and the time window the history query adds to them. */
export interface EventsFilters extends EventFilters {
  from?: string;
  to?: string;
}

const EVENTS_PAGE_SIZE = 200;

/** One page of history, newest first, before the keyset cursor; always with the cluster's `dropped`. */
function getEvents(clusterId: string, filters: EventsFilters, before?: number) {
  const query = new URLSearchParams({ limit: String(EVENTS_PAGE_SIZE) });
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  if (before !== undefined) query.set('before', String(before));
  return getJson(`/clusters/${clusterId}/events?${query.toString()}`, EventsPageSchema);
}

/** History paged back in time by `before` (seq): scrolling down reads the next older page. */
const eventHistoryQueryOptions = (clusterId: string, filters: EventsFilters) =>
  infiniteQueryOptions({
    queryKey: queryKeys.eventHistory(clusterId, filters),
    queryFn: ({ pageParam }) => getEvents(clusterId, filters, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    meta: { label: 'the event history' },
  });

export const useEventHistory = (clusterId: string, filters: EventsFilters) =>
  useInfiniteQuery(eventHistoryQueryOptions(clusterId, filters));

/**
 * The cluster's newest unobserved periods (ADR-0010) in the filters' time window, for a filtered
 * feed: the history query's filters select on fields these records do not have. Periods are rare
 * (a crash, a failover), so one page is the lot.
 */
export const useUnobservedPeriods = (clusterId: string, filters: EventsFilters, enabled: boolean) => {
  const window = { type: UNOBSERVED_EVENT_TYPE, from: filters.from, to: filters.to };
  return useQuery({
    queryKey: queryKeys.unobservedPeriods(clusterId, window),
    queryFn: () => getEvents(clusterId, window),
    select: (page) => page.items,
    enabled,
    meta: { label: 'the unobserved periods' },
  });
};
