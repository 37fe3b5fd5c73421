import { EventsPageSchema } from '@artemis-studio/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface EventsFilters {
  type?: string;
  address?: string;
  queue?: string;
  node?: string;
  consumer?: string;
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
