import { QueueBaselineResponseSchema, type QueueBaselineResponse } from '@artemis-studio/contracts';
import { useQuery } from '@tanstack/react-query';
import { getJson } from '../api-client';
import { queryKeys } from '../query-keys';
import type { UsualBandStretch } from '../ui/time-chart';

const HOUR_MS = 3_600_000;

/**
 * A queue's usual depth at each hour of a window ending now (ADR-0039). Read again when the hour
 * turns, not at every tick: the band is learned from past weeks, and this hour changes nothing in it.
 */
export function useQueueBaseline(clusterId: string, queue: string, rangeMs: number, enabled = true) {
  const hour = Math.floor(Date.now() / HOUR_MS);
  return useQuery({
    queryKey: queryKeys.queueBaseline(clusterId, queue, rangeMs, hour),
    queryFn: () => {
      const to = Date.now();
      const query = new URLSearchParams({
        from: new Date(to - rangeMs).toISOString(),
        to: new Date(to).toISOString(),
      });
      return getJson(
        `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/baseline?${query.toString()}`,
        QueueBaselineResponseSchema,
      );
    },
    enabled,
    staleTime: 10 * 60_000,
    meta: { label: "the queue's usual band" },
  });
}

/**
 * The band of each hour that has one, as a stretch of the chart (seconds), and what the shading
 * is, or why there is none.
 */
export function usualBand(baseline: QueueBaselineResponse) {
  const stretches = baseline.hours.map((h) => {
    const from = Date.parse(h.t) / 1000;
    return { from, to: from + HOUR_MS / 1000, low: h.low, high: h.high };
  });
  const note =
    stretches.length === 0
      ? `No usual band: ${baseline.why ?? 'no hour of this range has one'}.`
      : "Shaded: the usual depth for each hour of the week (10th to 90th percentile of that hour's peaks over the last four weeks)" +
        (baseline.why ? `; some hours have none: ${baseline.why}.` : '.');
  return { stretches, note };
}

/**
 * The level a baseline rule fires above at each of the chart's times (seconds): `times` × the top
 * of that hour's band, a top of 0 read as 1 (as the rule reads it); null where the hour has no band.
 */
export function firingLevel(
  stretches: readonly UsualBandStretch[],
  times: readonly number[],
  multiple: number,
) {
  return times.map((t) => {
    const stretch = stretches.find((s) => s.from <= t && t < s.to);
    return stretch ? multiple * Math.max(stretch.high, 1) : null;
  });
}
