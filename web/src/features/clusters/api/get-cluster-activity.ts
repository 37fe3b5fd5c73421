import { EventsPageSchema, QueueGrowthResponseSchema, QueuePageSchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const DEEPEST = { page: 1, pageSize: 10, sort: 'messageCount', order: 'desc' } as const;

const deepestQueuesQueryOptions = (clusterId: string) =>
  queryOptions({
    queryKey: queryKeys.queuePage(clusterId, DEEPEST),
    queryFn: () =>
      getJson(
        `/clusters/${clusterId}/queues?${new URLSearchParams(Object.entries(DEEPEST).map(([k, v]) => [k, String(v)]))}`,
        QueuePageSchema,
      ),
    meta: { label: 'the deepest queues' },
  });

const growingQueuesQueryOptions = (clusterId: string, windowMs: number) =>
  queryOptions({
    queryKey: queryKeys.queueGrowth(clusterId, { windowMs }),
    queryFn: () =>
      getJson(`/clusters/${clusterId}/queues/growth?window=${windowMs}&limit=10`, QueueGrowthResponseSchema),
    meta: { label: 'the fastest-growing queues' },
  });

export const useDeepestQueues = (clusterId: string) => useQuery(deepestQueuesQueryOptions(clusterId));
export const useGrowingQueues = (clusterId: string, windowMs: number) =>
  useQuery(growingQueuesQueryOptions(clusterId, windowMs));

/** The cluster's newest broker events of the last `rangeMs`, for the markers on its charts. */
const clusterEventsQueryOptions = (clusterId: string, rangeMs: number) =>
  queryOptions({
    queryKey: queryKeys.eventHistory(clusterId, { rangeMs, markers: true }),
    queryFn: () =>
      getJson(
        `/clusters/${clusterId}/events?limit=500&from=${new Date(Date.now() - rangeMs).toISOString()}`,
        EventsPageSchema,
      ),
    meta: { label: "the cluster's events" },
  });

export const useClusterEvents = (clusterId: string, rangeMs: number) =>
  useQuery(clusterEventsQueryOptions(clusterId, rangeMs));
