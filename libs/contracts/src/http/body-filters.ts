import { z } from 'zod';
import { MaskingRulesSchema } from './clusters';

/**
 * How a body filter reads a message (ADR-0038): `cel`, a CEL expression over `body` (the body's
 * JSON when it parses, its text otherwise) and `properties` (the application properties); `text`,
 * the body's text contains the expression; `regex`, an RE2 regular expression found in the text.
 */
export const BODY_MATCH_KINDS = ['cel', 'text', 'regex'] as const;
export type BodyMatchKind = (typeof BODY_MATCH_KINDS)[number];

/** The longest body filter taken. */
export const BODY_FILTER_MAX_LENGTH = 2000;

/**
 * A body filter in a query string, beside the broker's selector (`filter`): `body` the expression,
 * `bodyMatch` how it reads the body (`cel` when absent). The broker's selector narrows first; the owner reads each
 * message it lets through once and keeps those the body filter matches.
 */
export const BodyFilterQuery = {
  body: z.string().trim().min(1).max(BODY_FILTER_MAX_LENGTH).optional(),
  bodyMatch: z.enum(BODY_MATCH_KINDS).optional(),
};

/**
 * What an owner RPC that may carry a body filter is also given: the cluster's masking rules, applied
 * to each message before the filter reads it, so that a filter cannot find out what masking hides.
 */
export const BodyFilterCall = { masking: MaskingRulesSchema.optional() };

export const BodyFilterSchema = z
  .object({
    match: z.enum(BODY_MATCH_KINDS),
    expression: z.string().trim().min(1).max(BODY_FILTER_MAX_LENGTH),
  })
  .strict();
export type BodyFilter = z.infer<typeof BodyFilterSchema>;

/** A body filter from a query's `body` and `bodyMatch`; null without one. */
export function bodyFilterOf(query: { body?: string; bodyMatch?: BodyMatchKind }): BodyFilter | null {
  return query.body ? { match: query.bodyMatch ?? 'cel', expression: query.body } : null;
}

/**
 * What the owner's one pass over a queue found (ADR-0038). Every message the broker's selector let
 * through is read once, head to end, unless the scan's budget (messages or time) stops it first.
 */
export const BodyScanSchema = z.object({
  /** Messages read. */
  scanned: z.number().int().nonnegative(),
  /** How many times the owner asked the broker for messages (a credit grant each, up to 500). */
  reads: z.number().int().nonnegative().default(0),
  /** Of those, the ones the body filter matched. */
  matched: z.number().int().nonnegative(),
  /**
   * Matched, but carry no message id the broker can select them by (`AMQUserID`), or share theirs
   * with another message of the queue: shown and exported, but no action reaches them.
   */
  unselectable: z.number().int().nonnegative(),
  /** Read, but the expression could not be evaluated on them (a missing field, a wrong type): not matched. */
  failed: z.number().int().nonnegative(),
  /** The first such failure, in the evaluator's words. */
  firstFailure: z.string().nullable(),
  /** The read reached the queue's end; false when the budget or enough matches stopped it first. */
  complete: z.boolean(),
  /** What stopped it before the end: the scan's budget of messages or of time, or a browse's page filled. */
  stoppedBy: z.enum(['messages', 'time', 'page']).nullable(),
});
export type BodyScan = z.infer<typeof BodyScanSchema>;
