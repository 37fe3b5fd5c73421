import { EventsPageSchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** The broker events of one queue in a window ending now, for the markers on its charts. */
function getQueueEvents(clusterId: string, queue: string, rangeMs: number) {
  const query = new URLSearchParams({
    queue,
    from: new Date(Date.now() - rangeMs).toISOString(),
    limit: '500',
  });
  return getJson(`/clusters/${clusterId}/events?${query.toString()}`, EventsPageSchema);
}

const queueEventsQueryOptions = (clusterId: string, queue: string, rangeMs: number) =>
  queryOptions({
    queryKey: queryKeys.eventHistory(clusterId, { queue, rangeMs, markers: true }),
    queryFn: () => getQueueEvents(clusterId, queue, rangeMs),
    meta: { label: "the queue's events" },
  });

export const useQueueEvents = (clusterId: string, queue: string, rangeMs: number) =>
  useQuery(queueEventsQueryOptions(clusterId, queue, rangeMs));
