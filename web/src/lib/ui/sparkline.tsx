import { memo } from 'react';

/**
 * The SVG path of a series scaled into width × height, from zero (or the lowest value, if below)
 * to the highest: a gap (null) lifts the pen, so an unobserved stretch is not drawn as a line.
 */
export function sparklinePath(values: readonly (number | null)[], width: number, height: number): string {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return '';
  const low = Math.min(0, ...known);
  const high = Math.max(...known);
  const span = high - low || 1;
  const x = (i: number) => (values.length === 1 ? width / 2 : (i / (values.length - 1)) * width);
  const y = (v: number) => height - 1 - ((v - low) / span) * (height - 2);
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
        <path d={sparklinePath(values, width, height)} fill="none" stroke={color} strokeWidth={1.5} />
      </svg>
      <span style={{ minWidth: 48, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{latest}</span>
    </span>
  );
});
