import { EventsPageSchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface EventsFilters {
  type?: string;
  address?: string;
  queue?: string;
  node?: string;
  from?: string;
  to?: string;
}

/** The newest page of history, with the cluster's `dropped` count (never hidden). */
export function getEvents(clusterId: string, filters: EventsFilters, limit = 200) {
  const query = new URLSearchParams({ limit: String(limit) });
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  return getJson(`/clusters/${clusterId}/events?${query.toString()}`, EventsPageSchema);
}

export const eventsQueryOptions = (clusterId: string, filters: EventsFilters) =>
  queryOptions({
    queryKey: queryKeys.eventHistory(clusterId, filters),
    queryFn: () => getEvents(clusterId, filters),
    meta: { label: 'the event history' },
  });

export const useEventHistory = (clusterId: string, filters: EventsFilters) =>
  useQuery(eventsQueryOptions(clusterId, filters));
