import type { CSSProperties } from 'react';

/** The scrolling box of a virtualised table: it, not the page, scrolls, so the header can stick. */
export const virtualScroller = (height: string): CSSProperties => ({
  height,
  minHeight: 300,
  overflow: 'auto',
  border: '1px solid var(--mantine-color-default-border)',
  borderRadius: 4,
});

/** A grid row of the given columns; the header's stays at the top of the scrolling box. */
const gridRow = (columns: string, height: number): CSSProperties => ({
  display: 'grid',
  gridTemplateColumns: columns,
  height,
  alignItems: 'center',
  borderBottom: '1px solid var(--mantine-color-default-border)',
});

export const stickyHeader = (columns: string, height: number): CSSProperties => ({
  ...gridRow(columns, height),
  position: 'sticky',
  top: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
});
