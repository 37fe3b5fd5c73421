import { QueueMessagesPageSchema, type QueueMessagesQuery } from '@artemis-studio/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

function getQueueMessages(clusterId: string, queue: string, params: QueueMessagesQuery) {
  const query = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
  if (params.node) query.set('node', params.node);
  if (params.filter) query.set('filter', params.filter);
  if (params.body) query.set('body', params.body);
  if (params.bodyMatch) query.set('bodyMatch', params.bodyMatch);
  return getJson(
    `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/messages?${query.toString()}`,
    QueueMessagesPageSchema,
  );
}

/**
 * One page of the queue's messages. Read when asked and never polled: each read rescans the queue
 * under the broker's management lock. Left out of the freshness indicator (`onDemand`): the card
 * says when it was read, and a filter the broker refuses is not the console being offline.
 */
export const useQueueMessages = (
  clusterId: string,
  queue: string,
  params: QueueMessagesQuery,
  enabled: boolean,
) =>
  useQuery({
    queryKey: queryKeys.queueMessages(clusterId, queue, params),
    queryFn: () => getQueueMessages(clusterId, queue, params),
    enabled,
    refetchInterval: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    meta: { label: "the queue's messages", onDemand: true },
  });
