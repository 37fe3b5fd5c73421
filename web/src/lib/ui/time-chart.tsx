import { useComputedColorScheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
}

/** Something that happened at a moment: drawn as a vertical line, clickable. */
export interface ChartMarker {
  /** Seconds since the epoch. */
  t: number;
  label: string;
  color: string;
}

export interface TimeChartProps {
  /** Seconds since the epoch, ascending. */
  times: number[];
  /** The time axis in seconds since the epoch: the whole window asked for, however few points it holds. */
  span: [number, number];
  series: ChartSeries[];
  markers?: ChartMarker[];
  onMarker?(index: number): void;
  height?: number;
  unit: string;
  ariaLabel: string;
  /**
   * Usual bands shaded behind the series (a queue's depth, ADR-0039), each over its own stretch of
   * time (seconds since the epoch), whatever samples fall in it: none where there is none.
   */
  bands?: UsualBandStretch[];
}

/** A stretch of time with its usual band: from and to in seconds since the epoch. */
export interface UsualBandStretch {
  from: number;
  to: number;
  low: number;
  high: number;
}

const NO_BANDS: UsualBandStretch[] = [];
/** A usual band: a light teal (a grey would read as the grid), behind whatever is drawn on it. */
const BAND_FILL = 'rgba(18, 184, 134, 0.16)';

/** Each band's stretch as a rectangle from its low to its high, within the plot. */
function shadeBands(chart: uPlot, bands: readonly UsualBandStretch[]): void {
  const { ctx, bbox } = chart;
  ctx.save();
  ctx.beginPath();
  ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
  ctx.clip();
  ctx.fillStyle = BAND_FILL;
  for (const b of bands) {
    const left = chart.valToPos(b.from, 'x', true);
    const right = chart.valToPos(b.to, 'x', true);
    const top = chart.valToPos(b.high, 'y', true);
    const bottom = chart.valToPos(b.low, 'y', true);
    // A band of one value (a queue always at 10) is still seen: at least two pixels high.
    ctx.fillRect(left, top, right - left, Math.max(bottom - top, 2 * devicePixelRatio));
  }
  ctx.restore();
}

/** Pixels either side of a marker line that a click still takes as that marker. */
const MARKER_HIT_PX = 6;

/**
 * A small time-series chart (uPlot: canvas, tens of kilobytes, fast at a thousand points). The
 * instance is kept across renders and given new data, never rebuilt for a new point.
 */
export function TimeChart({
  times,
  span,
  series,
  markers = [],
  onMarker,
  height = 220,
  unit,
  ariaLabel,
  bands = NO_BANDS,
}: TimeChartProps) {
  const { ref: sizeRef, width } = useElementSize();
  const target = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const markersRef = useRef(markers);
  const spanRef = useRef(span);
  spanRef.current = span;
  const onMarkerRef = useRef(onMarker);
  const dark = useComputedColorScheme('light') === 'dark';
  markersRef.current = markers;
  onMarkerRef.current = onMarker;
  const bandsRef = useRef(bands);
  bandsRef.current = bands;
  const shape = `${series.map((s) => `${s.label}:${s.color}`).join('|')}|${dark}`;

  useEffect(() => {
    if (!target.current || width === 0) return;
    const ink = dark ? '#c1c2c5' : '#495057';
    const grid = dark ? '#373a40' : '#e9ecef';
    const u = new uPlot(
      {
        width,
        height,
        scales: {
          x: { time: true, range: () => spanRef.current },
          // The usual band's top is in view, though no sample reached it.
          y: {
            range: (_u, min, max) =>
              uPlot.rangeNum(
                Math.min(0, min ?? 0),
                Math.max(max ?? 0, ...bandsRef.current.map((b) => b.high)),
                0.1,
                true,
              ),
          },
        },
        series: [
          {},
          // Points left to uPlot: shown where samples are sparse (an alert of a few seconds is one or
          // two samples in a 15-minute range, invisible as a line), hidden where they are dense.
          ...series.map((s) => ({ label: s.label, stroke: s.color, width: 1.5 })),
        ],
        axes: [
          { stroke: ink, grid: { stroke: grid } },
          { stroke: ink, grid: { stroke: grid }, label: unit, size: 60 },
        ],
        legend: { live: true },
        hooks: {
          // Drawn first, so the series are drawn over it.
          drawClear: [(chart) => shadeBands(chart, bandsRef.current)],
          draw: [
            (chart) => {
              const { ctx, bbox } = chart;
              ctx.save();
              for (const m of markersRef.current) {
                const x = Math.round(chart.valToPos(m.t, 'x', true));
                if (x < bbox.left || x > bbox.left + bbox.width) continue;
                ctx.strokeStyle = m.color;
                ctx.lineWidth = 1.5 * devicePixelRatio;
                ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
                ctx.beginPath();
                ctx.moveTo(x, bbox.top);
                ctx.lineTo(x, bbox.top + bbox.height);
                ctx.stroke();
              }
              ctx.restore();
            },
          ],
        },
      },
      [[], ...series.map(() => [])],
      target.current,
    );
    const click = (e: MouseEvent) => {
      const hit = markersRef.current.findIndex(
        (m) => Math.abs(u.valToPos(m.t, 'x') - e.offsetX) <= MARKER_HIT_PX,
      );
      if (hit >= 0) onMarkerRef.current?.(hit);
    };
    u.over.addEventListener('click', click);
    plot.current = u;
    return () => {
      u.over.removeEventListener('click', click);
      u.destroy();
      plot.current = null;
    };
    // Rebuilt only when the series' shape, size or theme change; data arrives below.
  }, [shape, width, height, unit]);

  useEffect(() => {
    plot.current?.setData([times, ...series.map((s) => s.values)] as uPlot.AlignedData);
  }, [times, series, bands, width, shape]);

  useEffect(() => {
    plot.current?.redraw(false);
  }, [markers]);

  return (
    <div ref={sizeRef} role="img" aria-label={ariaLabel}>
      <div ref={target} />
    </div>
  );
}
