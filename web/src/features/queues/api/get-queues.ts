import { ClusterQueuePageSchema, QueuePageSchema, type QueueQuery } from '@artemis-studio/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** What picks and orders the rows: everything of a queues query but the page. */
export type QueuesFilter = Pick<QueueQuery, 'sort' | 'order'> &
  Partial<Pick<QueueQuery, 'search' | 'address' | 'routingType' | 'consumers' | 'kind'>>;
export type QueuesParams = QueuesFilter & Pick<QueueQuery, 'page' | 'pageSize'>;

function searchOf(params: QueuesParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') query.set(key, String(value));
  return query.toString();
}

function getQueues(clusterId: string, params: QueuesParams) {
  return getJson(`/clusters/${clusterId}/queues?${searchOf(params)}`, QueuePageSchema);
}

const queuesQueryOptions = (clusterId: string, params: QueuesParams) =>
  queryOptions({
    queryKey: queryKeys.queuePage(clusterId, params),
    queryFn: () => getQueues(clusterId, params),
    placeholderData: keepPreviousData,
    meta: { label: 'the queues' },
  });

export const useQueues = (clusterId: string, params: QueuesParams) =>
  useQuery(queuesQueryOptions(clusterId, params));

/** Each queue once for the cluster, its nodes beside it: the queues screen's rows. */
export const queuesAcrossNodesQueryOptions = (clusterId: string, params: QueuesParams) =>
  queryOptions({
    queryKey: queryKeys.queuesAcrossNodes(clusterId, params),
    queryFn: () =>
      getJson(`/clusters/${clusterId}/queues/across-nodes?${searchOf(params)}`, ClusterQueuePageSchema),
    placeholderData: keepPreviousData,
    meta: { label: 'the queues' },
  });
