/*
 * Pieces of the broker's selector syntax that Studio writes itself, the same in the console (an
 * export's filter) and on the owner (a job's, a body filter's matches).
 */

/** A value in a filter expression: a string literal, quotes doubled as the selector grammar wants. */
export const selectorLiteral = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** The dead-lettered or expired messages that came from `origin` (`_AMQ_ORIG_QUEUE`), or from none recorded. */
export const originSelector = (origin: string | null): string =>
  origin === null ? '_AMQ_ORIG_QUEUE IS NULL' : `_AMQ_ORIG_QUEUE = ${selectorLiteral(origin)}`;
