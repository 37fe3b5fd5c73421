import { memo } from 'react';

/** Where each value goes in a width × height box: from zero (or the lowest value, if below) to the highest. */
function scaler(values: readonly (number | null)[], width: number, height: number) {
  const known = values.filter((v): v is number => v !== null);
  const low = Math.min(0, ...known);
  const span = Math.max(...known) - low || 1;
  return {
    x: (i: number) => (values.length === 1 ? width / 2 : (i / (values.length - 1)) * width),
    y: (v: number) => height - 1 - ((v - low) / span) * (height - 2),
  };
}

/**
 * The SVG path of a series scaled into width × height, from zero (or the lowest value, if below)
 * to the highest: a gap (null) lifts the pen, so an unobserved stretch is not drawn as a line.
 */
export function sparklinePath(values: readonly (number | null)[], width: number, height: number): string {
  if (!values.some((v) => v !== null)) return '';
  const { x, y } = scaler(values, width, height);
  let path = '';
  let drawing = false;
  values.forEach((v, i) => {
    if (v === null) {
      drawing = false;
      return;
    }
    path += `${drawing ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    drawing = true;
  });
  return path;
}

/** The values with no observed neighbour, which a path cannot show: drawn as dots. */
function isolatedPoints(values: readonly (number | null)[], width: number, height: number) {
  if (!values.some((v) => v !== null)) return [];
  const { x, y } = scaler(values, width, height);
  return values.flatMap((v, i) =>
    v !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null
      ? [{ cx: x(i), cy: y(v) }]
      : [],
  );
}

/** A small line of the last values, with the latest stated beside it (and to screen readers). */
export const Sparkline = memo(function Sparkline({
  values,
  latest,
  label,
  color = 'var(--mantine-color-blue-6)',
  width = 110,
  height = 24,
}: {
  values: readonly (number | null)[];
  /** The latest value as shown, e.g. "1,204" or "3.5 /s"; "—" when nothing was observed. */
  latest: string;
  label: string;
  color?: string;
  width?: number;
  height?: number;
}) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <svg width={width} height={height} role="img" aria-label={`${label}: ${latest} now`}>
        {/* The whole window's extent, so a short stretch of data reads as recent, not as all there is. */}
        <line
          x1={0}
          y1={height - 0.5}
          x2={width}
          y2={height - 0.5}
          stroke="var(--mantine-color-default-border)"
          strokeWidth={1}
        />
        <path d={sparklinePath(values, width, height)} fill="none" stroke={color} strokeWidth={1.5} />
        {isolatedPoints(values, width, height).map((p) => (
          <circle key={p.cx} cx={p.cx} cy={p.cy} r={1.5} fill={color} />
        ))}
      </svg>
      <span style={{ minWidth: 48, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{latest}</span>
    </span>
  );
});
