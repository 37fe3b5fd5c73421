import { z } from 'zod';
import { Instant, Name, Uuid } from '../common';

/**
 * Break-glass access to masked bodies (issue 62, item 3): an administrator of the cluster opens one
 * queue's unmasked bodies to themselves for a few minutes (at most the setting
 * `artemis-studio.messages.unmasked-max-minutes`), with a reason and optionally a ticket. While it
 * is open, what they browse on that queue is not masked, and each page is audited as
 * `message.view-unmasked` with the ids of its messages. It ends by itself, or earlier when asked.
 * Exports stay masked.
 */
export const UnmaskedWindowSchema = z.object({
  id: Uuid,
  queue: z.string(),
  /** Whose window it is: only they see the bodies unmasked. */
  user: z.string(),
  reason: z.string(),
  ticket: z.string().nullable(),
  startsAt: Instant,
  endsAt: Instant,
  endedEarlyAt: Instant.nullable(),
});
export type UnmaskedWindow = z.infer<typeof UnmaskedWindowSchema>;

/** The cluster's windows in force: everyone on the cluster sees that bodies are open, and to whom. */
export const UnmaskedWindowListSchema = z.object({ items: z.array(UnmaskedWindowSchema) });
export type UnmaskedWindowList = z.infer<typeof UnmaskedWindowListSchema>;

export const OpenUnmaskedWindowRequestSchema = z.object({
  minutes: z.number().int().min(1).max(1440),
  reason: Name.max(500),
  /** A ticket or incident reference, kept with the window and in the audit trail. */
  ticket: z.string().trim().min(1).max(200).optional(),
});
export type OpenUnmaskedWindowRequest = z.infer<typeof OpenUnmaskedWindowRequestSchema>;
