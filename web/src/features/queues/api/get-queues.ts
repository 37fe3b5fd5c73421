import { QueuePageSchema, type QueueQuery } from '@artemis-studio/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** What picks and orders the rows: everything of a queues query but the page. */
export type QueuesFilter = Pick<QueueQuery, 'sort' | 'order'> &
  Partial<Pick<QueueQuery, 'search' | 'address' | 'routingType' | 'consumers' | 'kind'>>;
export type QueuesParams = QueuesFilter & Pick<QueueQuery, 'page' | 'pageSize'>;

function getQueues(clusterId: string, params: QueuesParams) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') query.set(key, String(value));
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
