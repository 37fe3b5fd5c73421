import { METRIC_POINTS_MAX } from '@artemis-studio/contracts';
import { resolveMetricRange, type MetricRange } from './metric-range';

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
