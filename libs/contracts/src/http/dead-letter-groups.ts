import { z } from 'zod';
import { Instant, Uuid } from '../common';
import { BodyFilterCall, BodyFilterQuery, BodyFilterSchema, BodyScanSchema } from './body-filters';
import { BrokerCountSchema } from './message-jobs';

const QueueName = z.string().min(1).max(1000);

/** `GET …/queues/{queue}/dead-letters`: a dead-letter or expiry queue's messages by where they came from. */
export const DeadLetterGroupsQuerySchema = z
  .object({ node: z.string().min(1).max(200).optional(), ...BodyFilterQuery })
  .strict();
export type DeadLetterGroupsQuery = z.infer<typeof DeadLetterGroupsQuerySchema>;

export const DeadLetterGroupSchema = z.object({
  /** `_AMQ_ORIG_QUEUE`: the queue the messages were dead-lettered or expired from; null when unset. */
  originQueue: z.string().nullable(),
  /** `_AMQ_ORIG_ADDRESS` of the group's first message. */
  originAddress: z.string().nullable(),
  /** Among the messages the broker looked at (`scanned`): `atLeast` when it did not look at them all. */
  messages: BrokerCountSchema,
  /** The send time of the group's oldest message among those the broker showed; null when unknown. */
  oldest: Instant.nullable(),
  /** Whether the original queue is on the node now: a retry to a queue that is gone is refused. */
  originExists: z.boolean(),
});
export type DeadLetterGroup = z.infer<typeof DeadLetterGroupSchema>;

export const DeadLetterGroupsSchema = z.object({
  clusterId: Uuid,
  queue: z.string(),
  node: z.string(),
  nodes: z.array(z.string()),
  depth: z.number().int().nonnegative().nullable(),
  /** How many messages the broker looked at to group them (its browse limit, or all of them). */
  scanned: z.number().int().nonnegative(),
  browseLimit: z.number().int().positive().nullable(),
  groups: z.array(DeadLetterGroupSchema),
  /** Grouped by a body filter's read (ADR-0038): the filter, what it found; `scanned` is what it read. */
  bodyFilter: BodyFilterSchema.nullable().default(null),
  bodyScan: BodyScanSchema.nullable().default(null),
});
export type DeadLetterGroups = z.infer<typeof DeadLetterGroupsSchema>;

export const DeadLetterGroupsCallSchema = DeadLetterGroupsQuerySchema.extend({
  clusterId: Uuid,
  queue: QueueName,
  ...BodyFilterCall,
}).strict();
export type DeadLetterGroupsCall = z.infer<typeof DeadLetterGroupsCallSchema>;
