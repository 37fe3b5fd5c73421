import {
  METRIC_POINTS_MAX,
  METRIC_RANGE_MAX_MS,
  METRIC_STEP_MIN_MS,
  type MetricsQuery,
} from '@artemis-studio/contracts';

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
