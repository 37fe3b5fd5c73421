import type { MetricsResponse } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { mergeTail, tailStart } from './metrics-tail';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 10, minute)).toISOString();
const point = (minute: number, depth: number) => ({
  t: at(minute),
  depth,
  consumers: 0,
  added: 0,
  acknowledged: 0,
  delivering: 0,
  oldestSeconds: null,
});
const window: MetricsResponse = {
  from: at(0),
  to: at(5),
  stepMs: 60_000,
  series: [{ node: 'total', points: [0, 1, 2, 3, 4].map((m) => point(m, m)) }],
};

describe('the chart tail', () => {
  it('is read from the start of the last bucket, which may have been partial', () => {
    expect(tailStart(window)).toBe(Date.parse(at(4)));
  });

  it('replaces the newest buckets, appends new ones and drops those that left the range', () => {
    const tail: MetricsResponse = {
      from: at(4),
      to: at(7),
      stepMs: 60_000,
      series: [{ node: 'total', points: [point(4, 40), point(5, 50), point(6, 60)] }],
    };
    const merged = mergeTail(window, tail, 5 * 60_000, Date.parse(at(7)));
    expect(merged.series[0].points.map((p) => [p.t, p.depth])).toEqual([
      [at(1), 1],
      [at(2), 2],
      [at(3), 3],
      [at(4), 40],
      [at(5), 50],
      [at(6), 60],
    ]);
    expect(merged.to).toBe(at(7));
  });

  it('takes a node that appears only in the tail', () => {
    const tail: MetricsResponse = {
      from: at(4),
      to: at(5),
      stepMs: 60_000,
      series: [
        { node: 'total', points: [point(4, 9)] },
        { node: 'b', points: [point(4, 9)] },
      ],
    };
    expect(mergeTail(window, tail, 60 * 60_000, Date.parse(at(5))).series.map((s) => s.node)).toEqual([
      'total',
      'b',
    ]);
  });
});
