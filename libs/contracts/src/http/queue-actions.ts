import { z } from 'zod';
import { Instant, Uuid } from '../common';

/**
 * What an operator may do to a queue (issue 28). Each runs on every live node that holds the
 * queue, through the cluster's scraper (the only service that talks Jolokia), one action at a
 * time per broker; each node's outcome is reported as the broker gave it.
 */
export const QUEUE_ACTIONS = ['pause', 'resume', 'purge', 'delete', 'retry'] as const;
export type QueueAction = (typeof QUEUE_ACTIONS)[number];

/**
 * The ones that take messages away from the queue: a dry run comes first, and the confirmation
 * states its count. `retry` sends a dead-letter or expiry queue's messages back to the queues they
 * came from (`_AMQ_ORIG_QUEUE`); the broker leaves those without one where they are.
 */
export const DESTRUCTIVE_QUEUE_ACTIONS = [
  'purge',
  'delete',
  'retry',
] as const satisfies readonly QueueAction[];

/** A queue name as Artemis takes it: any text but empty, bounded. */
const QueueName = z.string().min(1).max(1000);

export const PauseQueueRequestSchema = z
  .object({
    /** The pause survives a broker restart (Artemis' `pause(true)`). */
    persist: z.boolean().default(false),
  })
  .strict();
export type PauseQueueRequest = z.infer<typeof PauseQueueRequestSchema>;

/** `GET …/queues/{queue}/impact?action=purge|delete`: what the action would touch, changing nothing. */
export const QueueImpactQuerySchema = z.object({ action: z.enum(DESTRUCTIVE_QUEUE_ACTIONS) }).strict();
export type QueueImpactQuery = z.infer<typeof QueueImpactQuerySchema>;

export const NodeActionOutcomeSchema = z.enum([
  /** The broker did it. */
  'done',
  /** A dry run: nothing changed. */
  'counted',
  /** The queue is not on this node. */
  'absent',
  /** The broker refused or could not be asked; `error` says why. */
  'failed',
]);

export const NodeActionResultSchema = z.object({
  node: z.string(),
  outcome: NodeActionOutcomeSchema,
  /**
   * Messages removed (purge, delete) or sent back (retry), or that would be at most (a dry run: the
   * queue's depth), as the broker counted them; null where nothing is counted (pause, resume) or the
   * node failed.
   */
  messages: z.number().int().nonnegative().nullable(),
  /** The queue's depth on the node before and after, read from the broker around the action. */
  depthBefore: z.number().int().nonnegative().nullable(),
  depthAfter: z.number().int().nonnegative().nullable(),
  consumers: z.number().int().nonnegative().nullable(),
  paused: z.boolean().nullable(),
  error: z.string().nullable(),
  /** The broker's management lock was held (AMQ229245): trying again later may succeed. */
  busy: z.boolean().default(false),
  /** The node answered; false when it could not be asked (unreachable, no answer in time). */
  reached: z.boolean().default(true),
});
export type NodeActionResult = z.infer<typeof NodeActionResultSchema>;

export const QueueActionResultSchema = z.object({
  clusterId: Uuid,
  queue: z.string(),
  action: z.enum(QUEUE_ACTIONS),
  dryRun: z.boolean(),
  /** The sum of the nodes' `messages`; null when none counted. */
  messages: z.number().int().nonnegative().nullable(),
  nodes: z.array(NodeActionResultSchema),
  at: Instant,
});
export type QueueActionResult = z.infer<typeof QueueActionResultSchema>;

/** The owner RPC's request: one action on one queue, or its dry run. */
export const QueueActionCallSchema = z.object({
  clusterId: Uuid,
  queue: QueueName,
  action: z.enum(QUEUE_ACTIONS),
  dryRun: z.boolean(),
  persist: z.boolean().default(false),
});
export type QueueActionCall = z.infer<typeof QueueActionCallSchema>;

/** An action of more messages than this asks the operator to type the queue's name to confirm. */
export const TYPED_CONFIRMATION_THRESHOLD = 1000;
