import { QueuePageSchema, type QueueQuery } from '@artemis-studio/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type QueuesParams = Pick<QueueQuery, 'page' | 'pageSize' | 'sort' | 'order'> & { search?: string };

export function getQueues(clusterId: string, params: QueuesParams) {
  const query = new URLSearchParams({
    page: String(params.page),
    pageSize: String(params.pageSize),
    sort: params.sort,
    order: params.order,
    ...(params.search ? { search: params.search } : {}),
  });
  return getJson(`/clusters/${clusterId}/queues?${query.toString()}`, QueuePageSchema);
}

export const queuesQueryOptions = (clusterId: string, params: QueuesParams) =>
  queryOptions({
    queryKey: queryKeys.queuePage(clusterId, params),
    queryFn: () => getQueues(clusterId, params),
    placeholderData: keepPreviousData,
    meta: { label: 'the queues' },
  });

export const useQueues = (clusterId: string, params: QueuesParams) =>
  useQuery(queuesQueryOptions(clusterId, params));
