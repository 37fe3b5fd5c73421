import type { Signal } from '@artemis-studio/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLive, useStreamListener } from '../../../lib/live-context';
import { getQueueMetrics, queueMetricsQueryOptions, type MetricsWindow } from '../api/get-queue-metrics';
import { mergeTail, tailStart } from '../metrics-tail';

/**
 * A queue's chart window. The whole window is read once (and at the poll floor while the stream
 * is down); each `queues` signal then reads only the newest buckets and merges them in.
 */
export function useQueueMetrics(clusterId: string, queue: string, window: MetricsWindow) {
  const options = queueMetricsQueryOptions(clusterId, queue, window);
  const query = useQuery(options);
  const queryClient = useQueryClient();
  const { pause } = useLive();
  const listener = useMemo(
    () => ({
      signal: (signal: Signal) => {
        const current = queryClient.getQueryData(options.queryKey);
        if (signal.topic !== 'queues' || !current || pause.isPaused()) return;
        const now = Date.now();
        getQueueMetrics(clusterId, queue, tailStart(current), now, current.stepMs).then(
          (tail) => {
            const latest = queryClient.getQueryData(options.queryKey);
            if (latest)
              queryClient.setQueryData(options.queryKey, mergeTail(latest, tail, window.rangeMs, now));
          },
          // A failed tail leaves the window as it was; the next signal or a Refresh reads again.
          () => undefined,
        );
      },
    }),
    // The key is rebuilt each render; what it is made of is what matters.
    [queryClient, pause, clusterId, queue, window.rangeMs],
  );
  useStreamListener(clusterId, listener);
  return query;
}
