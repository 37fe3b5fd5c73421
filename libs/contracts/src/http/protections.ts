import { z } from 'zod';
import { globMatcher } from '../access-rules';
import { Instant, Name, Uuid } from '../common';
import { SubjectPattern } from './alert-rules';

/**
 * Protected queues and addresses (issue 62, item 2): name patterns per cluster (`*` is any run of
 * characters). On a queue or address a pattern matches, a destructive action (a purge, deleting
 * messages) needs an administrator of the cluster and a reason, given in the `X-Studio-Reason`
 * header (percent-encoded UTF-8 where it is not plain ASCII) and kept in the audit trail; deleting the queue or address is refused until the
 * protection is lifted, itself an audited change.
 */
export const REASON_HEADER = 'x-studio-reason';
export const REASON_MAX = 500;

export const ProtectionSchema = z.object({
  id: Uuid,
  pattern: z.string(),
  /** Why it is protected, shown to whoever meets the protection. */
  reason: z.string(),
  createdBy: z.string(),
  createdAt: Instant,
});
export type Protection = z.infer<typeof ProtectionSchema>;

/** Patterns Studio suggests, each with why; offered until the cluster has them. */
export const PROTECTION_SUGGESTIONS = [
  { pattern: 'DLQ', reason: 'the dead letters: evidence of what failed, and what a redrive sends back' },
  { pattern: '*.DLQ', reason: 'per-address dead-letter queues (auto-created ones)' },
  { pattern: 'ExpiryQueue', reason: 'expired messages, kept for inspection' },
  { pattern: '$.artemis.internal.*', reason: "the broker's own queues: store-and-forward links and mirrors" },
] as const;

export const ProtectionListSchema = z.object({
  items: z.array(ProtectionSchema),
  /** The suggested patterns this cluster does not protect yet. */
  suggestions: z.array(z.object({ pattern: z.string(), reason: z.string() })),
});
export type ProtectionList = z.infer<typeof ProtectionListSchema>;

export const CreateProtectionRequestSchema = z.object({
  pattern: SubjectPattern,
  reason: Name.max(REASON_MAX),
});
export type CreateProtectionRequest = z.infer<typeof CreateProtectionRequestSchema>;

/** The protection covering a queue or address name, the first that matches; null when none does. */
export function protectionOf<P extends { pattern: string }>(
  protections: readonly P[],
  name: string,
): P | null {
  return protections.find((p) => globMatcher(p.pattern)(name)) ?? null;
}
