import { MetricsResponseSchema } from '@artemis-studio/contracts';
import { getJson } from '../api-client';

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
