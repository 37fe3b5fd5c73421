import { describe, expect, it } from 'vitest';
import { chartData, latestOf, nodeChartData, perSecondOf, sparklinesOf } from './chart-data';

const point = (t: string, depth: number, added = 0) => ({
  t,
  depth,
  consumers: 0,
  added,
  acknowledged: 0,
  delivering: 0,
  oldestSeconds: null,
});

describe('perSecondOf', () => {
  it('rates a bucket over its step, and the last, unfinished one over the time it has had', () => {
    // A week's 11-minute buckets, read a minute into the last one.
    const rate = perSecondOf({ to: '2026-11-30T10:12:00Z', stepMs: 660_000 });
    expect(rate('2026-11-30T10:00:00Z', 660)).toBe(1);
    expect(rate('2026-11-30T10:11:00Z', 60)).toBe(1);
    // A bucket begun a moment ago counts over a second at least, not over its few milliseconds.
    expect(rate('2026-11-30T10:11:59.900Z', 3)).toBe(3);
  });
});

describe('chartData', () => {
  it('puts every node on the total time axis, leaving gaps where a node has no sample', () => {
    const data = chartData({
      from: '2026-11-30T10:00:00Z',
      to: '2026-11-30T10:03:00Z',
      stepMs: 60_000,
      series: [
        {
          node: 'total',
          points: [point('2026-11-30T10:00:00Z', 3, 60), point('2026-11-30T10:01:00Z', 5, 120)],
        },
        { node: 'a', points: [point('2026-11-30T10:00:00Z', 3)] },
        { node: 'b', points: [point('2026-11-30T10:01:00Z', 5)] },
      ],
    });
    expect(data.times).toEqual([
      Date.parse('2026-11-30T10:00:00Z') / 1000,
      Date.parse('2026-11-30T10:01:00Z') / 1000,
    ]);
    expect(data.depth.map((s) => [s.label, s.values])).toEqual([
      ['total', [3, 5]],
      ['a', [3, null]],
      ['b', [null, 5]],
    ]);
    expect(data.rates[0].values).toEqual([1, 2]);
  });

  it('draws one depth line for a single node', () => {
    const data = chartData({
      from: '2026-11-30T10:00:00Z',
      to: '2026-11-30T10:01:00Z',
      stepMs: 60_000,
      series: [
        { node: 'total', points: [point('2026-11-30T10:00:00Z', 3)] },
        { node: 'a', points: [point('2026-11-30T10:00:00Z', 3)] },
      ],
    });
    expect(data.depth.map((s) => s.label)).toEqual(['total']);
  });
});

describe('sparklinesOf', () => {
  const point = (t: string, depth: number, added: number, connections?: number | null) => ({
    t,
    depth,
    consumers: 0,
    added,
    acknowledged: 0,
    delivering: 0,
    oldestSeconds: null,
    ...(connections !== undefined && { connections }),
  });
  const metrics = {
    from: '2026-11-30T10:00:00.000Z',
    to: '2026-11-30T10:03:00.000Z',
    stepMs: 60_000,
    series: [
      {
        node: 'total',
        points: [
          point('2026-11-30T10:00:00.000Z', 3, 60, 2),
          point('2026-11-30T10:01:00.000Z', 4, 120, 3),
          point('2026-11-30T10:02:00.000Z', 5, 0, null),
        ],
      },
      {
        node: 'a',
        points: [point('2026-11-30T10:00:00.000Z', 3, 60, 2), point('2026-11-30T10:02:00.000Z', 5, 0)],
      },
    ],
  };

  it('puts every series on one axis, with rates per second and gaps where nothing was observed', () => {
    const lines = sparklinesOf(metrics);
    expect(lines.get('total')).toEqual({
      depth: [3, 4, 5],
      inPerSecond: [1, 2, 0],
      connections: [2, 3, null],
      diskPercent: [null, null, null],
    });
    expect(lines.get('a')).toEqual({
      depth: [3, null, 5],
      inPerSecond: [1, null, 0],
      connections: [2, null, null],
      diskPercent: [null, null, null],
    });
  });

  it("draws a node's journal disk in percent, and none where the broker gave none", () => {
    const lines = sparklinesOf({
      ...metrics,
      series: [
        {
          node: 'a',
          points: [
            { ...point('2026-11-30T10:00:00.000Z', 0, 0), diskUsage: 0.42 },
            { ...point('2026-11-30T10:02:00.000Z', 0, 0), diskUsage: null },
          ],
        },
      ],
    });
    expect(lines.get('a')!.diskPercent).toEqual([42, null, null]);
  });

  it('spans the whole window: data from its last minutes sits at the right end, not stretched', () => {
    const lines = sparklinesOf({
      ...metrics,
      from: '2026-11-30T09:58:00.000Z',
      series: [{ node: 'total', points: [point('2026-11-30T10:02:00.000Z', 5, 0, 1)] }],
    });
    expect(lines.get('total')!.depth).toEqual([null, null, null, null, 5]);
  });

  it('takes the last observed value as the latest', () => {
    expect(latestOf([2, 3, null])).toBe(3);
    expect(latestOf([null])).toBeNull();
  });
});

describe('nodeChartData', () => {
  it("reads one node's disk and memory as percentages, unknown where the broker gave none", () => {
    const base = { depth: 0, consumers: 0, added: 0, acknowledged: 0, delivering: 0, oldestSeconds: null };
    const data = nodeChartData(
      {
        from: '2026-11-30T10:00:00Z',
        to: '2026-11-30T10:02:00Z',
        stepMs: 60_000,
        series: [
          { node: 'total', points: [{ ...base, t: '2026-11-30T10:00:00Z' }] },
          {
            node: 'a',
            points: [
              {
                ...base,
                t: '2026-11-30T10:00:00Z',
                diskUsage: 0.5,
                diskLimit: 0.9,
                memoryBytes: 250,
                memoryLimitBytes: 1000,
              },
              {
                ...base,
                t: '2026-11-30T10:01:00Z',
                diskUsage: null,
                diskLimit: 0.9,
                memoryBytes: 10,
                memoryLimitBytes: -1,
              },
            ],
          },
        ],
      },
      'a',
    );
    expect(data.disk).toEqual([50, null]);
    expect(data.diskLimit).toEqual([90, 90]);
    expect(data.memory).toEqual([25, null]);
  });
});
