import {
  BrokerChangeResultSchema,
  type CreateAddressRequest,
  type CreateQueueRequest,
  type SendMessageRequest,
} from '@artemis-studio/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A queue made on every live node; the queues are read again. One key per form submission. */
export function useCreateQueue(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      queue,
      idempotencyKey,
    }: {
      queue: Partial<CreateQueueRequest> & { name: string };
      idempotencyKey: string;
    }) =>
      sendJson('POST', `/clusters/${clusterId}/queues`, queue, BrokerChangeResultSchema, fetch, {
        'Idempotency-Key': idempotencyKey,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.queues(clusterId) }),
  });
}

/**
 * One message sent by the broker to the queue, or to its address (every queue bound to it); the
 * queues and their messages are read again.
 */
export function useSendMessage(clusterId: string, queue: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      message,
      address,
      queue: to = queue,
      idempotencyKey,
    }: {
      message: Partial<SendMessageRequest> & { body: string };
      /** Send to this address rather than to the queue alone. */
      address?: string;
      /** Send to this queue rather than the one the hook is for (a resend elsewhere). */
      queue?: string;
      idempotencyKey: string;
    }) =>
      sendJson(
        'POST',
        address !== undefined
          ? `/clusters/${clusterId}/addresses/${encodeURIComponent(address)}/messages`
          : `/clusters/${clusterId}/queues/${encodeURIComponent(to)}/messages`,
        message,
        BrokerChangeResultSchema,
        fetch,
        { 'Idempotency-Key': idempotencyKey },
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.queues(clusterId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.allQueueMessages(clusterId) }),
      ]),
  });
}

/** An address made on every live node (administrators); the queues are read again. */
export function useCreateAddress(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ address, idempotencyKey }: { address: CreateAddressRequest; idempotencyKey: string }) =>
      sendJson('POST', `/clusters/${clusterId}/addresses`, address, BrokerChangeResultSchema, fetch, {
        'Idempotency-Key': idempotencyKey,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.queues(clusterId) }),
  });
}

/** An address deleted on every live node: refused while queues are bound, unless they go too. */
export function useDeleteAddress(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      name,
      removeQueues,
      idempotencyKey,
    }: {
      name: string;
      removeQueues: boolean;
      idempotencyKey: string;
    }) =>
      sendJson(
        'DELETE',
        `/clusters/${clusterId}/addresses/${encodeURIComponent(name)}?removeQueues=${removeQueues}`,
        undefined,
        BrokerChangeResultSchema,
        fetch,
        { 'Idempotency-Key': idempotencyKey },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.queues(clusterId) }),
  });
}
