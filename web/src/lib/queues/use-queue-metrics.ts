import { useMetricsWindow } from '../metrics/use-metrics-window';
import { queryKeys } from '../query-keys';
import { getQueueMetrics, type MetricsWindow } from './get-queue-metrics';

/** A queue's chart window, sliding with the tier-B ticks. */
export function useQueueMetrics(clusterId: string, queue: string, window: MetricsWindow) {
  return useMetricsWindow({
    clusterId,
    queryKey: queryKeys.queueMetrics(clusterId, queue, window),
    rangeMs: window.rangeMs,
    read: (from, to, stepMs) => getQueueMetrics(clusterId, queue, from, to, stepMs),
    label: 'the queue charts',
  });
}
