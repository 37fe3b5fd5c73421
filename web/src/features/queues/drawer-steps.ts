/**
 * Which message the drawer shows: one of the page on screen (`index`), or, once Previous or Next
 * crossed a page's edge, the last or first of the page being read (`then`), the message it came
 * from shown until that page is in.
 */
export interface DrawerAt {
  index: number;
  then?: 'first' | 'last';
}

/** What the drawer needs of the page it browses. */
export interface BrowsedPage {
  page: number;
  /** Messages on the page on screen. */
  count: number;
  /** Whether this is the queue's last page (fewer messages than a page holds). */
  last: boolean;
}

/** Where Previous (-1) or Next (+1) from `index` leads: this page, another page's edge, or nowhere. */
export function stepFrom(
  index: number,
  direction: -1 | 1,
  at: BrowsedPage,
): { at: DrawerAt; page: number } | null {
  const to = index + direction;
  if (to >= 0 && to < at.count) return { at: { index: to }, page: at.page };
  if (direction === -1 && at.page > 1) return { at: { index, then: 'last' }, page: at.page - 1 };
  if (direction === 1 && !at.last) return { at: { index, then: 'first' }, page: at.page + 1 };
  return null;
}

/** The index shown now: the page's edge once the page stepped to is in, the old index until then. */
export function shownIndex(at: DrawerAt | null, count: number, pageIn: boolean): number | null {
  if (at === null) return null;
  if (!at.then || !pageIn) return at.index;
  return at.then === 'first' ? 0 : count - 1;
}
