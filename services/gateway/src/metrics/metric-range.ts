import {
  METRIC_POINTS_MAX,
  METRIC_RANGE_MAX_MS,
  METRIC_STEP_MIN_MS,
  type MetricsQuery,
} from '@artemis-studio/contracts';
import { NODE_ROLLUP_RESOLUTIONS_S } from '@artemis-studio/db';

export interface MetricRange {
  from: Date;
  to: Date;
  stepMs: number;
}

const DEFAULT_RANGE_MS = 3_600_000;

/**
 * The range and bucket width a metrics query will use: the last hour by default, and never more
 * than METRIC_POINTS_MAX buckets (a finer step is raised). A string is the reason it is refused.
 */
export function resolveMetricRange(query: MetricsQuery, now: Date): MetricRange | string {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_RANGE_MS);
  const span = to.getTime() - from.getTime();
  if (span <= 0) return 'from must be before to';
  if (span > METRIC_RANGE_MAX_MS)
    return `the range is ${Math.ceil(span / 86_400_000)} days; at most ${METRIC_RANGE_MAX_MS / 86_400_000} days can be asked for`;
  const finest = Math.max(METRIC_STEP_MIN_MS, Math.ceil(span / METRIC_POINTS_MAX));
  return { from, to, stepMs: Math.max(query.step ?? finest, finest) };
}

/** Where a cluster's series is read from (ADR-0020): its nodes' ticks (0) or rollups of that many seconds. */
export interface ClusterSeriesSource {
  resolutionS: number;
  /** The bucket width used: the range's, or raised to a whole number of the rollup's buckets. */
  stepMs: number;
}

/** Ticks first, then each rollup, finest to coarsest: the resolutions a cluster's history is kept at. */
const RESOLUTIONS_S = [0, ...NODE_ROLLUP_RESOLUTIONS_S];

/**
 * The resolution a cluster's series reads: the coarsest no wider than the step whose history
 * reaches back to the range's start (`earliest`: the oldest kept at each resolution, null when
 * none). When none does, a coarser one whose history starts earlier by more than its bucket (a
 * month ago is kept by the hour only), the step raised to it; a cluster younger than the range is
 * read at the step. A rollup's step is a whole number of its buckets, so that every bucket of the
 * answer sums as many of them (a 90 s step over minutes would count one minute, then two).
 */
export function clusterSeriesSource(
  range: MetricRange,
  earliest: ReadonlyMap<number, Date | null>,
): ClusterSeriesSource {
  const start = range.from.getTime();
  const keptSince = (resolutionS: number) => earliest.get(resolutionS)?.getTime() ?? Infinity;
  const fits = RESOLUTIONS_S.filter((r) => r * 1000 <= range.stepMs);
  let resolutionS = [...fits].reverse().find((r) => keptSince(r) <= start) ?? fits[fits.length - 1];
  for (const coarser of RESOLUTIONS_S.filter((r) => r > resolutionS)) {
    if (keptSince(resolutionS) <= start) break;
    if (keptSince(coarser) + coarser * 1000 < keptSince(resolutionS)) resolutionS = coarser;
  }
  const bucketMs = resolutionS * 1000;
  return {
    resolutionS,
    stepMs: bucketMs === 0 ? range.stepMs : Math.ceil(range.stepMs / bucketMs) * bucketMs,
  };
}
