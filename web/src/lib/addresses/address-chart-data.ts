import type { AddressMetricPoint, AddressMetricsResponse } from '@artemis-studio/contracts';
import { formatBytes } from '../ui/format';

const PALETTE = ['#4c6ef5', '#12b886', '#fab005', '#e64980', '#7950f2', '#fd7e14'];

/**
 * An address's size in memory (in total, and per node where there is more than one) and the
 * fullest node's percentage of its limit, on one time axis over the whole window: a bucket no node
 * sampled is a gap, and a percentage the broker did not give stays null, never 0.
 */
export function addressChartData(metrics: AddressMetricsResponse) {
  const from = Date.parse(metrics.from);
  const buckets = Math.max(1, Math.ceil((Date.parse(metrics.to) - from) / metrics.stepMs));
  const times = Array.from({ length: buckets }, (_, i) => (from + i * metrics.stepMs) / 1000);
  const along = (points: AddressMetricPoint[], figure: (p: AddressMetricPoint) => number | null) => {
    const values: (number | null)[] = times.map(() => null);
    for (const p of points) {
      const i = Math.floor((Date.parse(p.t) - from) / metrics.stepMs);
      if (i >= 0 && i < buckets) values[i] = figure(p);
    }
    return values;
  };
  const total = metrics.series.find((s) => s.node === 'total');
  const nodes = metrics.series.filter((s) => s.node !== 'total');
  const size = [
    { label: 'total', color: PALETTE[0], values: along(total?.points ?? [], (p) => p.sizeBytes) },
    ...(nodes.length > 1
      ? nodes.map((s, n) => ({
          label: s.node,
          color: PALETTE[(n + 1) % PALETTE.length],
          values: along(s.points, (p) => p.sizeBytes),
        }))
      : []),
  ];
  const limitPercent = along(total?.points ?? [], (p) => p.limitPercent);
  const span: [number, number] = [from / 1000, Date.parse(metrics.to) / 1000];
  return {
    times,
    span,
    size,
    limitPercent,
    /**
     * The highest percentage in the window; null when the broker gave none. 0 throughout says
     * little: an address without a limit of its own reads 0 too.
     */
    limitPeak: limitPercent.reduce<number | null>(
      (peak, v) => (v === null ? peak : Math.max(peak ?? 0, v)),
      null,
    ),
    latest: latestState(metrics),
    /** When the newest bucket began (ms), or null: "now" only while it is recent. */
    latestAt: metrics.series.find((s) => s.node === 'total')?.points.at(-1)?.t ?? null,
  };
}

/** The newest bucket's state in words: "paging on a (2 pages), 31% of its limit, 30 KB in memory". */
function latestState(metrics: AddressMetricsResponse): string | null {
  const total = metrics.series.find((s) => s.node === 'total');
  const last = total?.points.at(-1);
  if (!last) return null;
  const paging = metrics.series
    .filter((s) => s.node !== 'total' && s.points.at(-1)?.t === last.t && s.points.at(-1)?.paging)
    .map((s) => s.node);
  return [
    last.paging
      ? `paging${paging.length > 0 ? ` on ${paging.join(', ')}` : ''} (${last.pages} page${last.pages === 1 ? '' : 's'})`
      : 'not paging',
    last.limitPercent === null ? null : `${last.limitPercent}% of its limit`,
    `${formatBytes(last.sizeBytes)} in memory`,
  ]
    .filter((part) => part !== null)
    .join(', ');
}
