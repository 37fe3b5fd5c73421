import type { LiveListKind } from '@artemis-studio/contracts';

export type LiveRow = Record<string, unknown>;

/** Rows of the page whose any field contains `search` (case-insensitive). */
export function searchRows(rows: readonly LiveRow[], search: string | undefined): LiveRow[] {
  const needle = search?.trim().toLowerCase();
  if (!needle) return [...rows];
  return rows.filter((row) =>
    Object.values(row).some((v) => v !== null && String(v).toLowerCase().includes(needle)),
  );
}

/** Sorted by one field: numbers as numbers, the rest as text, missing values last. */
export function sortRows(
  rows: readonly LiveRow[],
  field: string | undefined,
  order: 'asc' | 'desc' = 'asc',
): LiveRow[] {
  if (!field) return [...rows];
  const sign = order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    if (x === undefined || x === null) return 1;
    if (y === undefined || y === null) return -1;
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    return sign * String(x).localeCompare(String(y), undefined, { numeric: true });
  });
}

/**
 * Where a field of one list leads: a consumer's session to the sessions, a session's connection
 * to the connections, a queue to its page. The field names are the broker's own.
 */
export function linkOf(
  kind: LiveListKind,
  field: string,
  value: unknown,
): { kind: LiveListKind | 'queue'; search: string } | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  if (kind === 'consumers' && field === 'session') return { kind: 'sessions', search: text };
  if ((kind === 'consumers' || kind === 'sessions') && (field === 'connectionID' || field === 'connectionId'))
    return { kind: 'connections', search: text };
  if (kind === 'consumers' && field === 'queue') return { kind: 'queue', search: text };
  if (kind === 'sessions' && field === 'id') return { kind: 'consumers', search: text };
  if (kind === 'connections' && field === 'connectionID') return { kind: 'sessions', search: text };
  return null;
}
