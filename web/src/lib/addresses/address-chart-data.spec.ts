import type { AddressMetricsResponse } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { addressChartData } from './address-chart-data';

const at = (minute: number) => new Date(Date.UTC(2026, 11, 2, 10, minute)).toISOString();
const point = (
  minute: number,
  sizeBytes: number,
  limitPercent: number | null,
  paging = false,
  pages = 0,
) => ({
  t: at(minute),
  sizeBytes,
  pages,
  limitPercent,
  paging,
});

describe('the address chart', () => {
  const metrics: AddressMetricsResponse = {
    from: at(0),
    to: at(5),
    stepMs: 60_000,
    series: [
      { node: 'total', points: [point(0, 100, null), point(3, 3000, 40), point(4, 5000, 101, true, 2)] },
      { node: 'a', points: [point(0, 100, null), point(3, 2000, 40), point(4, 4000, 101, true, 2)] },
      { node: 'b', points: [point(3, 1000, null), point(4, 1000, null)] },
    ],
  };

  it('lays every bucket of the window on the axis, unsampled ones as gaps', () => {
    const data = addressChartData(metrics);
    expect(data.times).toHaveLength(5);
    expect(data.size[0].values).toEqual([100, null, null, 3000, 5000]);
    expect(data.size.map((s) => s.label)).toEqual(['total', 'a', 'b']);
    expect(data.size[2].values).toEqual([null, null, null, 1000, 1000]);
  });

  it('keeps an unknown percentage unknown, not zero', () => {
    const data = addressChartData(metrics);
    expect(data.limitPercent).toEqual([null, null, null, 40, 101]);
    expect(data.limitPeak).toBe(101);
  });

  it('says the newest state in words, naming the nodes that page', () => {
    expect(addressChartData(metrics).latest).toBe(
      'paging on a (2 pages), 101% of its limit, 4.9 KB in memory',
    );
  });

  it('has no limit line for an address without a limit of its own', () => {
    const none = { ...metrics, series: [{ node: 'total', points: [point(1, 10, null)] }] };
    const data = addressChartData(none);
    expect(data.limitPeak).toBeNull();
    expect(data.size).toHaveLength(1);
    expect(data.latest).toBe('not paging, 10 B in memory');
  });
});
