/** A chart window as the metrics routes answer it, whatever figures its points carry. */
export interface SeriesWindow<P extends { t: string } = { t: string }> {
  from: string;
  to: string;
  stepMs: number;
  series: { node: string; points: P[] }[];
}

/**
 * Where to fetch a window's newest buckets from: the start of its last bucket, which may have
 * been partial when it was read. Bucket starts stay aligned with the window's.
 */
export function tailStart(window: SeriesWindow): number {
  const from = Date.parse(window.from);
  const last = Math.max(from, ...window.series.flatMap((s) => s.points.map((p) => Date.parse(p.t))));
  return last;
}

/**
 * The window with its newest buckets replaced by a tail read with the same step from `tailStart`,
 * and buckets older than `rangeMs` before `now` dropped: the chart moves without the whole window
 * being read again.
 */
export function mergeTail<W extends SeriesWindow>(window: W, tail: W, rangeMs: number, now: number): W {
  const cut = Date.parse(tail.from);
  const oldest = now - rangeMs;
  const nodes = [...new Set([...window.series, ...tail.series].map((s) => s.node))];
  return {
    ...window,
    from: new Date(Math.max(Date.parse(window.from), oldest - window.stepMs)).toISOString(),
    to: tail.to,
    stepMs: window.stepMs,
    series: nodes.map((node) => ({
      node,
      points: [
        ...(window.series.find((s) => s.node === node)?.points ?? []).filter(
          (p) => Date.parse(p.t) < cut && Date.parse(p.t) >= oldest - window.stepMs,
        ),
        ...(tail.series.find((s) => s.node === node)?.points ?? []),
      ],
    })),
  };
}
