import { MetricsResponseSchema } from '@artemis-studio/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A window ending now; re-resolved at every fetch, so a refetch slides it forward. */
export interface MetricsWindow {
  rangeMs: number;
}

export function getQueueMetrics(clusterId: string, queue: string, from: number, to: number, stepMs?: number) {
  const query = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  if (stepMs) query.set('step', String(stepMs));
  return getJson(
    `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/metrics?${query.toString()}`,
    MetricsResponseSchema,
  );
}

export const queueMetricsQueryOptions = (clusterId: string, queue: string, window: MetricsWindow) =>
  queryOptions({
    queryKey: queryKeys.queueMetrics(clusterId, queue, window),
    queryFn: () => getQueueMetrics(clusterId, queue, Date.now() - window.rangeMs, Date.now()),
    placeholderData: keepPreviousData,
    meta: { label: 'the queue charts' },
  });
