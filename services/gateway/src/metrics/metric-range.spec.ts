import { METRIC_POINTS_MAX } from '@artemis-studio/contracts';
import { clusterSeriesSource, resolveMetricRange, type MetricRange } from './metric-range';

const now = new Date('2026-11-30T12:00:00Z');

describe('resolveMetricRange', () => {
  it('defaults to the last hour in at most a thousand buckets', () => {
    expect(resolveMetricRange({}, now)).toEqual({
      from: new Date('2026-11-30T11:00:00Z'),
      to: now,
      stepMs: 3600,
    });
  });

  it('keeps a step coarse enough, and raises one that would give more than the point cap', () => {
    const day = { from: '2026-11-29T12:00:00Z', to: '2026-11-30T12:00:00Z' };
    expect((resolveMetricRange({ ...day, step: 600_000 }, now) as MetricRange).stepMs).toBe(600_000);
    const raised = resolveMetricRange({ ...day, step: 1000 }, now) as MetricRange;
    expect(raised.stepMs).toBe(86_400);
    expect(86_400_000 / raised.stepMs).toBeLessThanOrEqual(METRIC_POINTS_MAX);
  });

  it('refuses an inverted or empty range, and one longer than a month', () => {
    expect(resolveMetricRange({ from: '2026-11-30T12:00:00Z', to: '2026-11-30T11:00:00Z' }, now)).toBe(
      'from must be before to',
    );
    expect(resolveMetricRange({ from: '2026-11-30T12:00:00Z', to: '2026-11-30T12:00:00Z' }, now)).toBe(
      'from must be before to',
    );
    expect(resolveMetricRange({ from: '2016-11-30T12:00:00Z' }, now)).toMatch(/at most 31 days/);
  });
});

describe('clusterSeriesSource', () => {
  const hour = resolveMetricRange({}, now) as MetricRange;
  const week = resolveMetricRange({ from: '2026-11-23T12:00:00Z' }, now) as MetricRange;
  const month = resolveMetricRange({ from: '2026-10-30T12:00:00Z' }, now) as MetricRange;
  const kept = (tick: string | null, minute: string | null, hourly: string | null) =>
    new Map<number, Date | null>(
      [tick, minute, hourly].map((at, i): [number, Date | null] => [
        [0, 60, 3600][i],
        at ? new Date(at) : null,
      ]),
    );
  /** Retention as shipped: ticks a day, minutes 8 days, hours 32 days. */
  const asShipped = kept('2026-11-29T11:00:00Z', '2026-11-22T11:00:00Z', '2026-10-29T11:00:00Z');

  it('reads the ticks for an hour, the minutes for a week, and the hours for a month', () => {
    expect(clusterSeriesSource(hour, asShipped)).toEqual({ resolutionS: 0, stepMs: 3600 });
    // 7 days in 605 s buckets: 11 whole minutes each.
    expect(clusterSeriesSource(week, asShipped)).toEqual({ resolutionS: 60, stepMs: 660_000 });
    // 31 days: finer than an hour asked, but minutes are kept for 8 days only.
    expect(clusterSeriesSource(month, asShipped)).toEqual({ resolutionS: 3600, stepMs: 3_600_000 });
  });

  it('takes the coarsest resolution no wider than the step, the ticks still kept or not', () => {
    const day = resolveMetricRange({ from: '2026-11-29T12:00:00Z' }, now) as MetricRange;
    expect(clusterSeriesSource(day, asShipped)).toEqual({ resolutionS: 60, stepMs: 120_000 });
    expect(clusterSeriesSource({ ...day, stepMs: 60_000 }, asShipped)).toEqual({
      resolutionS: 60,
      stepMs: 60_000,
    });
    expect(clusterSeriesSource({ ...day, stepMs: 30_000 }, asShipped)).toEqual({
      resolutionS: 0,
      stepMs: 30_000,
    });
  });

  it('raises the step to a resolution kept that far back when a finer one is not', () => {
    const lastWeeksHour = resolveMetricRange(
      { from: '2026-11-25T11:00:00Z', to: '2026-11-25T12:00:00Z' },
      now,
    );
    expect(clusterSeriesSource(lastWeeksHour as MetricRange, asShipped)).toEqual({
      resolutionS: 60,
      stepMs: 60_000,
    });
  });

  it('reads the coarsest fitting resolution of a cluster younger than the range, and of one with nothing kept', () => {
    // Its first hour's rollup begins before its first minute's: not an hour of history more.
    const young = kept('2026-11-30T10:20:07Z', '2026-11-30T10:20:00Z', '2026-11-30T10:00:00Z');
    expect(clusterSeriesSource(week, young)).toEqual({ resolutionS: 60, stepMs: 660_000 });
    expect(clusterSeriesSource(month, young)).toEqual({ resolutionS: 60, stepMs: 2_700_000 });
    expect(clusterSeriesSource(hour, kept(null, null, null))).toEqual({ resolutionS: 0, stepMs: 3600 });
  });

  it('reads by the hour a range that the hours reach further back into than the minutes', () => {
    const twoWeeksOld = kept('2026-11-29T11:00:00Z', '2026-11-22T11:00:00Z', '2026-11-16T12:00:00Z');
    expect(clusterSeriesSource(month, twoWeeksOld)).toEqual({ resolutionS: 3600, stepMs: 3_600_000 });
    expect(clusterSeriesSource(week, twoWeeksOld)).toEqual({ resolutionS: 60, stepMs: 660_000 });
  });
});
