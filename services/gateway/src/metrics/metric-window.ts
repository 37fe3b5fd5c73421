import type { MetricRange } from './metric-range';

/** A bucket of width $4 (ms) from the range's start $2. */
export const binOf = (at: string) =>
  `date_bin(make_interval(secs => $4::float8 / 1000), ${at}, $2::timestamptz)`;

/**
 * A window's answer from its rows, ordered total first, then by node and bucket: one series per
 * node, and `total` (present, empty, when nothing was sampled).
 */
export function windowOf<R extends { node: string | null; total: boolean }, P>(
  range: MetricRange,
  rows: readonly R[],
  pointOf: (row: R) => P,
): { from: string; to: string; stepMs: number; series: { node: string; points: P[] }[] } {
  const series = new Map<string, { node: string; points: P[] }>([['total', { node: 'total', points: [] }]]);
  for (const r of rows) {
    const name = r.total ? 'total' : r.node!;
    let one = series.get(name);
    if (!one) series.set(name, (one = { node: name, points: [] }));
    one.points.push(pointOf(r));
  }
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    stepMs: range.stepMs,
    series: [...series.values()],
  };
}
