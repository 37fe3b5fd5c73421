import type { BrokerEvent, MetricsResponse } from '@artemis-studio/contracts';

export const RANGES = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
} as const;
export type RangeName = keyof typeof RANGES;

/**
 * A cluster's overview reaches further back than a queue's page: its charts read its nodes'
 * rollups, kept 8 and 32 days (ADR-0020), where a queue's samples are kept a day.
 */
export const CLUSTER_RANGES = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
} as const;
export type ClusterRangeName = keyof typeof CLUSTER_RANGES;
export const CLUSTER_RANGE_NAMES = Object.keys(CLUSTER_RANGES) as [ClusterRangeName, ...ClusterRangeName[]];

/** Said in a chart's title: "last hour", "last 7 days". */
export const CLUSTER_RANGE_TEXT: Record<ClusterRangeName, string> = {
  '1h': 'last hour',
  '6h': 'last 6 hours',
  '24h': 'last 24 hours',
  '7d': 'last 7 days',
  '30d': 'last 30 days',
};

const PALETTE = ['#4c6ef5', '#12b886', '#fab005', '#e64980', '#7950f2', '#fd7e14'];

/**
 * A bucket's count as a rate per second. The last bucket has not ended: its count is over the time
 * from its start to the window's end, not over a whole step (a week's 11-minute bucket a minute
 * old would read a tenth of the rate).
 */
export function perSecondOf(metrics: Pick<MetricsResponse, 'to' | 'stepMs'>) {
  const to = Date.parse(metrics.to);
  return (t: string, count: number) =>
    (count * 1000) / Math.max(1000, Math.min(metrics.stepMs, to - Date.parse(t)));
}

/** Depth per node and in total, and the total's in and out rates per second, on one time axis. */
export function chartData(metrics: MetricsResponse) {
  const total = metrics.series.find((s) => s.node === 'total');
  const times = (total?.points ?? []).map((p) => Date.parse(p.t) / 1000);
  const index = new Map(times.map((t, i) => [t, i]));
  const nodes = metrics.series.filter((s) => s.node !== 'total');
  const perSecond = perSecondOf(metrics);
  const depth = [
    { label: 'total', color: PALETTE[0], values: (total?.points ?? []).map((p) => p.depth) },
    // One line per node only where there is more than one node to tell apart.
    ...(nodes.length > 1
      ? nodes.map((s, n) => {
          const values: (number | null)[] = times.map(() => null);
          for (const p of s.points) values[index.get(Date.parse(p.t) / 1000)!] = p.depth;
          return { label: s.node, color: PALETTE[(n + 1) % PALETTE.length], values };
        })
      : []),
  ];
  const rates = [
    { label: 'in /s', color: PALETTE[1], values: (total?.points ?? []).map((p) => perSecond(p.t, p.added)) },
    {
      label: 'acked /s',
      color: PALETTE[2],
      values: (total?.points ?? []).map((p) => perSecond(p.t, p.acknowledged)),
    },
  ];
  const span: [number, number] = [Date.parse(metrics.from) / 1000, Date.parse(metrics.to) / 1000];
  // A queue's own figures beside its depth: what consumers hold unacknowledged, and the oldest
  // message's wait (null where the broker dated none, or before these were kept).
  const delivering = {
    label: 'in delivery',
    color: PALETTE[3],
    values: (total?.points ?? []).map((p) => p.delivering),
  };
  const oldest = {
    label: 'oldest waited',
    color: PALETTE[4],
    values: (total?.points ?? []).map((p) => p.oldestSeconds),
  };
  return { times, span, depth, rates, delivering, oldest };
}

/**
 * One node's own figures from the cluster's series, as percentages on its time axis: its journal
 * disk usage and the usage at which the broker blocks, and its address memory against the global
 * limit (null where unknown, or with no limit).
 */
export function nodeChartData(metrics: MetricsResponse, node: string) {
  const points = metrics.series.find((s) => s.node === node)?.points ?? [];
  const percent = (v: number | null | undefined) => (v === null || v === undefined ? null : v * 100);
  return {
    times: points.map((p) => Date.parse(p.t) / 1000),
    span: [Date.parse(metrics.from) / 1000, Date.parse(metrics.to) / 1000] as [number, number],
    disk: points.map((p) => percent(p.diskUsage)),
    diskLimit: points.map((p) => percent(p.diskLimit)),
    memory: points.map((p) =>
      p.memoryBytes === null || p.memoryBytes === undefined || !p.memoryLimitBytes || p.memoryLimitBytes <= 0
        ? null
        : (p.memoryBytes / p.memoryLimitBytes) * 100,
    ),
  };
}

export interface NodeSparklines {
  depth: (number | null)[];
  inPerSecond: (number | null)[];
  connections: (number | null)[];
  /** The journal disk's usage in percent: a node's own, none on `total`. */
  diskPercent: (number | null)[];
}

/**
 * Each series (every node's and `total`) as sparkline values over the whole window, one per
 * bucket from `from` to `to`: depth, messages in per second, connections, disk usage. A bucket with no point
 * is a gap, not a zero, so two minutes of data sit at the right end of an hour's line instead of
 * being stretched across it.
 */
export function sparklinesOf(metrics: MetricsResponse): Map<string, NodeSparklines> {
  const from = Date.parse(metrics.from);
  const buckets = Math.max(1, Math.ceil((Date.parse(metrics.to) - from) / metrics.stepMs));
  const bucketOf = (t: string) =>
    Math.min(buckets - 1, Math.max(0, Math.floor((Date.parse(t) - from) / metrics.stepMs)));
  const perSecond = perSecondOf(metrics);
  const result = new Map<string, NodeSparklines>();
  for (const s of metrics.series) {
    const empty = () => Array.from<number | null>({ length: buckets }).fill(null);
    const lines: NodeSparklines = {
      depth: empty(),
      inPerSecond: empty(),
      connections: empty(),
      diskPercent: empty(),
    };
    for (const p of s.points) {
      const i = bucketOf(p.t);
      lines.depth[i] = p.depth;
      lines.inPerSecond[i] = perSecond(p.t, p.added);
      lines.connections[i] = p.connections ?? null;
      lines.diskPercent[i] = p.diskUsage === null || p.diskUsage === undefined ? null : p.diskUsage * 100;
    }
    result.set(s.node, lines);
  }
  return result;
}

/** The last value that was observed, or null. */
export const latestOf = (values: readonly (number | null)[]): number | null =>
  values.findLast((v) => v !== null) ?? null;

/** Colour by what the event did to the queue: consumers coming, going, the binding changing. */
function markerColor(type: string): string {
  if (type === 'CONSUMER_CREATED') return '#12b886';
  if (type === 'CONSUMER_CLOSED') return '#fd7e14';
  if (type.startsWith('BINDING_')) return '#7950f2';
  if (type === 'CONNECTION_DESTROYED') return '#fa5252';
  return '#868e96';
}

/** What an operator wants on a timeline: consumers coming and going, connections, bindings. */
export function isTimelineEvent(type: string): boolean {
  return /^(CONSUMER_(CREATED|CLOSED)|CONNECTION_(CREATED|DESTROYED)|BINDING_(ADDED|REMOVED))$/.test(type);
}

export function markersOf(events: readonly BrokerEvent[]) {
  return events.map((e) => ({
    t: Date.parse(e.brokerTs ?? e.receivedAt) / 1000,
    label: e.type,
    color: markerColor(e.type),
  }));
}
