import type { Signal } from '@artemis-studio/contracts';
import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLive, useStreamListener } from '../live-context';
import { mergeTail, tailStart, type SeriesWindow } from './metrics-tail';

export interface MetricsWindowQuery<W extends SeriesWindow> {
  clusterId: string;
  queryKey: QueryKey;
  /** The window ends now; the whole range is read once. */
  rangeMs: number;
  read(from: number, to: number, stepMs?: number): Promise<W>;
  /** What the query's error names ("the queue charts"). */
  label: string;
}

/**
 * A chart window that slides with the tier-B ticks: read whole once (and at the poll floor while
 * the stream is down), then each `queues` signal reads only the newest buckets and merges them in.
 */
export function useMetricsWindow<W extends SeriesWindow>({
  clusterId,
  queryKey,
  rangeMs,
  read,
  label,
}: MetricsWindowQuery<W>) {
  const query = useQuery({
    queryKey,
    queryFn: () => read(Date.now() - rangeMs, Date.now()),
    placeholderData: keepPreviousData,
    meta: { label },
  });
  const queryClient = useQueryClient();
  const { pause } = useLive();
  const keyText = JSON.stringify(queryKey);
  const listener = useMemo(
    () => ({
      signal: (signal: Signal) => {
        const current = queryClient.getQueryData<W>(queryKey);
        if (signal.topic !== 'queues' || !current || pause.isPaused()) return;
        const now = Date.now();
        read(tailStart(current), now, current.stepMs).then(
          (tail) => {
            const latest = queryClient.getQueryData<W>(queryKey);
            if (latest) queryClient.setQueryData(queryKey, mergeTail(latest, tail, rangeMs, now));
          },
          // A failed tail leaves the window as it was; the next signal or a Refresh reads again.
          () => undefined,
        );
      },
    }),
    // The key and reader are rebuilt each render; what the key is made of is what matters.
    [queryClient, pause, keyText, rangeMs],
  );
  useStreamListener(clusterId, listener);
  return query;
}
