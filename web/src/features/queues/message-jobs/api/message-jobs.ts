import {
  DeadLetterGroupsSchema,
  type BodyFilter,
  MessageJobImpactSchema,
  MessageJobListSchema,
  MessageJobSchema,
  type MessageJobBodyInput,
  type MessageJobImpactQuery,
  type MessageJobKind,
} from '@artemis-studio/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { newIdempotencyKey } from '../../../../lib/idempotency-key';
import { getJson, sendJson } from '../../../../lib/api-client';
import { queryKeys } from '../../../../lib/query-keys';

const queuePath = (clusterId: string, queue: string) =>
  `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}`;

/**
 * The queue's recent message jobs, newest first. Read again on every `jobs` signal (a job started,
 * made progress or ended), so a running job's progress moves without polling.
 */
export const useMessageJobs = (clusterId: string, queue: string) =>
  useQuery({
    queryKey: queryKeys.messageJobs(clusterId, queue),
    queryFn: () =>
      getJson(
        `/clusters/${clusterId}/message-jobs?queue=${encodeURIComponent(queue)}&limit=10`,
        MessageJobListSchema,
      ),
    meta: { label: "the queue's message jobs" },
  });

/** What a job would touch, counted by the broker as the confirmation opens (asked once, never polled). */
export const useMessageJobImpact = (clusterId: string, queue: string) =>
  useMutation({
    mutationFn: (query: MessageJobImpactQuery) => {
      const params = new URLSearchParams({ kind: query.kind });
      if (query.filter) params.set('filter', query.filter);
      if (query.body) params.set('body', query.body);
      if (query.bodyMatch) params.set('bodyMatch', query.bodyMatch);
      if (query.origin !== undefined) params.set('origin', query.origin);
      if (query.node) params.set('node', query.node);
      return getJson(
        `${queuePath(clusterId, queue)}/messages/impact?${params.toString()}`,
        MessageJobImpactSchema,
      );
    },
  });

export interface StartMessageJob {
  kind: MessageJobKind;
  body: MessageJobBodyInput;
  /** One per confirmation: sending the same confirmation again starts one job. */
  idempotencyKey: string;
}

export function useStartMessageJob(clusterId: string, queue: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, body, idempotencyKey }: StartMessageJob) =>
      sendJson('POST', `${queuePath(clusterId, queue)}/messages/${kind}`, body, MessageJobSchema, fetch, {
        'Idempotency-Key': idempotencyKey,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.allMessageJobs(clusterId) }),
  });
}

export function useCancelMessageJob(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) =>
      sendJson('POST', `/clusters/${clusterId}/message-jobs/${jobId}/cancel`, {}, MessageJobSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.allMessageJobs(clusterId) }),
  });
}

/** Resumes a job its return guard paused: the owner plans it again over what is left. */
export function useResumeMessageJob(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) =>
      sendJson('POST', `/clusters/${clusterId}/message-jobs/${jobId}/resume`, {}, MessageJobSchema, fetch, {
        // One click, one resume: a retried request is answered with the same outcome.
        'Idempotency-Key': newIdempotencyKey(),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.allMessageJobs(clusterId) }),
  });
}

/**
 * The queue's messages by the queue they were dead-lettered or expired from. Read when shown and
 * when asked, never polled: the broker groups them under its management lock.
 */
export const useDeadLetterGroups = (
  clusterId: string,
  queue: string,
  body: BodyFilter | null,
  enabled: boolean,
) =>
  useQuery({
    queryKey: [...queryKeys.deadLetterGroups(clusterId, queue), body],
    queryFn: () => {
      const query = body ? `?${new URLSearchParams({ body: body.expression, bodyMatch: body.match })}` : '';
      return getJson(`${queuePath(clusterId, queue)}/dead-letters${query}`, DeadLetterGroupsSchema);
    },
    enabled,
    refetchInterval: false,
    refetchOnWindowFocus: false,
    retry: false,
    staleTime: Infinity,
    meta: { label: 'the dead letters by origin', onDemand: true },
  });
