import type { ClusterQueueRow } from '@artemis-studio/contracts';
import { useQueries } from '@tanstack/react-query';
import { queuesAcrossNodesQueryOptions, type QueuesFilter } from '../api/get-queues';

/** Rows fetched per request; the table reads only the pages its visible rows fall in. */
export const ROWS_PER_PAGE = 100;

/** The 1-based pages that hold rows `first` to `last` (inclusive), page 1 always (it carries the total). */
export function pagesFor(first: number, last: number, rowsPerPage = ROWS_PER_PAGE): number[] {
  const pages = new Set([1]);
  for (let page = Math.floor(first / rowsPerPage) + 1; page <= Math.floor(last / rowsPerPage) + 1; page++)
    pages.add(page);
  return [...pages].sort((a, b) => a - b);
}

/**
 * The rows of a queues view for the visible range only: one query per page in view, so a
 * `queues` signal refetches what is on screen and nothing else, at 10,000 rows as at 10.
 */
export function useQueueRows(clusterId: string, filter: QueuesFilter, first: number, last: number) {
  const pages = pagesFor(first, last);
  const results = useQueries({
    queries: pages.map((page) =>
      queuesAcrossNodesQueryOptions(clusterId, { ...filter, page, pageSize: ROWS_PER_PAGE }),
    ),
  });
  const rows = new Map<number, ClusterQueueRow>();
  results.forEach((result, i) => {
    const offset = (pages[i] - 1) * ROWS_PER_PAGE;
    result.data?.items.forEach((row, j) => rows.set(offset + j, row));
  });
  return { rows, fetching: results.some((r) => r.isFetching) };
}
