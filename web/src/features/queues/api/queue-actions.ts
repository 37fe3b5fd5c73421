import {
  QueueActionResultSchema,
  REASON_HEADER,
  type QueueAction,
  type QueueActionResult,
} from '@artemis-studio/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const queuePath = (clusterId: string, queue: string) =>
  `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}`;

/**
 * What a purge or a delete would remove, counted by the broker when the confirmation opens. A
 * mutation, not a query: it is asked for once, never polled, and its failure is the dialog's to
 * say, not the freshness indicator's (the console is not offline because a count failed).
 */
export const useQueueImpact = (clusterId: string, queue: string) =>
  useMutation({
    mutationFn: (action: 'purge' | 'delete' | 'retry') =>
      getJson(`${queuePath(clusterId, queue)}/impact?action=${action}`, QueueActionResultSchema),
  });

export interface QueueActionRequest {
  action: QueueAction;
  persist?: boolean;
  /** One per confirmation: a retry of the same confirmation sends it again and acts once. */
  idempotencyKey: string;
  /** Why, for a protected queue's purge: kept in the audit trail. */
  reason?: string;
}

function runQueueAction(
  clusterId: string,
  queue: string,
  request: QueueActionRequest,
): Promise<QueueActionResult> {
  const headers = {
    'Idempotency-Key': request.idempotencyKey,
    // Percent-encoded: a header carries Latin-1 only, and a reason may say "réinjecté".
    ...(request.reason ? { [REASON_HEADER]: encodeURIComponent(request.reason) } : {}),
  };
  const path = queuePath(clusterId, queue);
  if (request.action === 'delete')
    return sendJson('DELETE', path, undefined, QueueActionResultSchema, fetch, headers);
  const body = request.action === 'pause' ? { persist: request.persist ?? false } : undefined;
  return sendJson('POST', `${path}/${request.action}`, body, QueueActionResultSchema, fetch, headers);
}

/** An action on the queue; the cluster's queues and the queue's messages are read again once it is done. */
export function useQueueAction(clusterId: string, queue: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: QueueActionRequest) => runQueueAction(clusterId, queue, request),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.queues(clusterId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.allQueueMessages(clusterId) }),
      ]),
  });
}
