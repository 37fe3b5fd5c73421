import { z } from 'zod';
import { Instant, Uuid } from '../common';
import { MESSAGE_JOB_KINDS, selectionProblem } from './message-job-rules';
import { BodyFilterCall, BodyFilterQuery, BodyFilterSchema, BodyScanSchema } from './body-filters';

/**
 * Work on a queue's messages rather than on the queue (issue 28, ADR-0012): run by the cluster's
 * owner as a job, in bounded batches where the broker allows it, with its progress kept in
 * PostgreSQL (`message_job`) and signalled on the `jobs` topic.
 *
 * - `move`: to another queue; chosen messages, by filter, or all (batched: `moveMessages` with a count).
 * - `copy`: chosen messages only (the broker copies by id, and has no copy by filter).
 * - `retry`: chosen messages back where they were dead-lettered or expired from, or a dead-letter
 *   group (`origin`) back to its original queue (batched moves), or into a quarantine queue first.
 * - `delete`: chosen messages, or by filter, or all (batched: moved into a trash queue of the job's
 *   own and emptied in the same call, since `removeMessages` takes no count).
 *
 * A move may also go to the same queue on another node of the cluster (`toNode`): the fix for
 * stranded messages (docs/clusters.md). The broker moves them to the binding its cluster connection
 * keeps for that queue, and its store-and-forward link carries them there.
 */

export const MESSAGE_JOB_STATUSES = [
  'running',
  /** Every message selected was processed (or the broker found no more). */
  'done',
  /** Stopped by an operator between two batches: `processed` is exact, the rest is still in the queue. */
  'cancelled',
  /** The broker refused a batch or could not be reached: `error` says why, `processed` what was done. */
  'failed',
  /** The replica running it stopped (crash, lease lost): `processed` plus at most `inFlight`. */
  'interrupted',
  /**
   * Stopped by its return guard between two batches: too many of the messages it sent came back
   * (`error` says how many); `processed` and `returned` are exact, the rest is still in the queue.
   */
  'paused',
] as const;
export type MessageJobStatus = (typeof MESSAGE_JOB_STATUSES)[number];

const QueueName = z.string().min(1).max(1000);
/** A filter expression in the broker's selector syntax; the broker's own error answers an invalid one. */
const Filter = z.string().trim().min(1).max(2000);
/** Message ids are the broker's, per node: a chosen message is named with the node it was browsed on. */
const MessageId = z.string().regex(/^\d{1,19}$/, 'a message id is the number the broker gave it');

export const MESSAGE_JOB_BATCH_MAX = 10_000;
/**
 * A batch is one broker transaction: at 500 the per-batch commit made a 100,000-message move 2x
 * slower than one broker call; at 2,000 it is within 1.5x (bench broker-actions), and a batch still
 * holds the broker's lock for well under a second.
 */
export const MESSAGE_JOB_BATCH_DEFAULT = 2_000;
export const CHOSEN_MESSAGES_MAX = 500;
export const MESSAGE_JOB_RATE_MAX = 100_000;

export const ReturnGuardSchema = z
  .object({
    percent: z.number().int().min(1).max(100),
    withinSeconds: z.number().int().min(5).max(3600).default(60),
  })
  .strict();
export type ReturnGuard = z.infer<typeof ReturnGuardSchema>;

/** What a job works on: chosen messages (on one node), a dead-letter group, a filter, or everything. */
const Selection = {
  /** Chosen messages, by the ids browse gave them on `node`. */
  messageIds: z.array(MessageId).min(1).max(CHOSEN_MESSAGES_MAX).optional(),
  node: z.string().min(1).max(200).optional(),
  filter: Filter.optional(),
  /** A retry of the dead-letter group whose original queue (`_AMQ_ORIG_QUEUE`) is this. */
  origin: QueueName.optional(),
  /** Only the messages whose bodies this matches: read once by the owner, then moved by id (ADR-0038). */
  bodyFilter: BodyFilterSchema.optional(),
};

/**
 * `POST …/queues/{queue}/messages/{move|copy|retry|delete}`: starts a job of that kind; answered
 * 202 with it. Each kind is its own route, so each is audited under its own name.
 */
export const MessageJobBodySchema = z
  .object({
    ...Selection,
    /** Where `move` and `copy` send the messages. */
    to: QueueName.optional(),
    /**
     * Move (or retry) into this queue instead, created when missing: the messages wait there to be
     * inspected, and a retry from it returns them where they were taken from (the broker records
     * this queue as their origin), so the redrive can be undone.
     */
    quarantine: QueueName.optional(),
    /**
     * Move the queue's messages on `node` to the same queue on this node of the cluster, through the
     * cluster connection (`moveMessages` to the remote binding Artemis keeps for it): for messages
     * stranded on a node without consumers.
     */
    toNode: z.string().min(1).max(200).optional(),
    batchSize: z.number().int().min(1).max(MESSAGE_JOB_BATCH_MAX).default(MESSAGE_JOB_BATCH_DEFAULT),
    /**
     * At most this many messages a second, in batches of about half of it: a redrive that
     * does not flood a consumer that has just recovered.
     */
    rate: z.number().int().min(1).max(MESSAGE_JOB_RATE_MAX).optional(),
    /**
     * Wait before each batch until the queue the messages go to has a consumer and is not paused,
     * on the node the batch runs on: the job says meanwhile why it waits, and can be cancelled.
     */
    waitForConsumer: z.boolean().optional(),
    /**
     * The return guard: the job pauses itself when more than `percent` of what it sent in the last
     * `withinSeconds` was dead-lettered again from the queue it sent them to (that queue's
     * `MessagesKilled`, read with each batch).
     */
    pauseOnReturns: ReturnGuardSchema.optional(),
  })
  .strict();
export type MessageJobBody = z.infer<typeof MessageJobBodySchema>;
/** What a client sends (`batchSize` may be left out). */
export type MessageJobBodyInput = z.input<typeof MessageJobBodySchema>;

/** The job as the owner is asked to run it: a body and its kind, its selection making sense. */
export const StartMessageJobRequestSchema = MessageJobBodySchema.extend({
  kind: z.enum(MESSAGE_JOB_KINDS),
}).superRefine((job, ctx) => {
  const problem = selectionProblem(job);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
export type StartMessageJobRequest = z.infer<typeof StartMessageJobRequestSchema>;

/** `GET …/queues/{queue}/message-jobs/impact`: how many messages a job would touch, counted by the broker. */
export const MessageJobImpactQuerySchema = z
  .object({
    kind: z.enum(MESSAGE_JOB_KINDS),
    filter: Filter.optional(),
    origin: QueueName.optional(),
    /** A body filter (ADR-0038): the owner reads the queue once and counts what it matches. */
    ...BodyFilterQuery,
    /** Count on this node only: a job on one node's messages (a move to another node). */
    node: z.string().min(1).max(200).optional(),
  })
  .strict();
export type MessageJobImpactQuery = z.infer<typeof MessageJobImpactQuerySchema>;

/**
 * A count as the broker computed it. A filtered count looks at no more than the broker's browse
 * limit (`management-browse-page-size`): past it, `atLeast` says the true number may be larger.
 */
export const BrokerCountSchema = z.object({
  count: z.number().int().nonnegative(),
  atLeast: z.boolean(),
});
export type BrokerCount = z.infer<typeof BrokerCountSchema>;

export const MessageJobImpactSchema = z.object({
  clusterId: Uuid,
  queue: z.string(),
  kind: z.enum(MESSAGE_JOB_KINDS),
  filter: z.string().nullable(),
  /** The sum over the nodes; `atLeast` when any node's count is a lower bound. */
  messages: BrokerCountSchema,
  nodes: z.array(
    z.object({
      node: z.string(),
      messages: BrokerCountSchema,
      /** The queue's depth on the node (MessageCount). */
      depth: z.number().int().nonnegative().nullable(),
    }),
  ),
  /** The broker looks at no more than this many messages for a filtered count. */
  browseLimit: z.number().int().positive().nullable(),
  /** With a body filter, what the owner's scan found on every node; `messages` counts what a job reaches. */
  bodyScan: BodyScanSchema.nullable().default(null),
});
export type MessageJobImpact = z.infer<typeof MessageJobImpactSchema>;

export const MessageJobNodeSchema = z.object({
  node: z.string(),
  /** Moved, copied, retried or deleted on this node, as the broker counted each batch. */
  processed: z.number().int().nonnegative(),
  batches: z.number().int().nonnegative(),
  /** Chosen messages the broker could not reach: paged out of memory, or gone already. */
  notReached: z.number().int().nonnegative(),
  /** Dead-lettered again from the queue the job sent to on this node, while the job ran (its return guard). */
  returned: z.number().int().nonnegative().default(0),
  error: z.string().nullable(),
});
export type MessageJobNode = z.infer<typeof MessageJobNodeSchema>;

export const MessageJobSchema = z.object({
  id: Uuid,
  clusterId: Uuid,
  queue: z.string(),
  kind: z.enum(MESSAGE_JOB_KINDS),
  status: z.enum(MESSAGE_JOB_STATUSES),
  filter: z.string().nullable(),
  origin: z.string().nullable(),
  /** How many messages were chosen, for a job on chosen messages. */
  chosen: z.number().int().nonnegative().nullable(),
  /** The queue the messages go to (the quarantine when there is one); null for a delete. */
  target: z.string().nullable(),
  quarantine: z.boolean(),
  /** For a move to the same queue on another node: that node (`target` is then the queue itself). */
  toNode: z.string().nullable(),
  batchSize: z.number().int().positive(),
  /** At most this many messages a second, or null for as fast as the broker allows. */
  rate: z.number().int().positive().nullable(),
  /** Each batch waits until the queue the messages go to has a consumer and is not paused. */
  waitForConsumer: z.boolean(),
  /** Why the job waits now, before its next batch (no consumer, paused), or null. */
  waiting: z.string().nullable(),
  pauseOnReturns: ReturnGuardSchema.nullable(),
  /** The sum of the nodes' `returned`: sent by the job, and dead-lettered again since. */
  returned: z.number().int().nonnegative(),
  /** What the broker counted when the job started (the confirmation's number). */
  planned: BrokerCountSchema.nullable(),
  /** The body filter it selected by, and what its scan found before the first batch (ADR-0038). */
  bodyFilter: BodyFilterSchema.nullable().default(null),
  bodyScan: BodyScanSchema.nullable().default(null),
  /** The sum of the nodes' `processed`. */
  processed: z.number().int().nonnegative(),
  nodes: z.array(MessageJobNodeSchema),
  /** For an interrupted job: at most this many more may have been processed (the batch running). */
  inFlight: z.number().int().nonnegative().nullable(),
  /**
   * Whether it can be stopped between batches: every job now (a delete by filter runs in batches
   * through a trash queue of its own); false on jobs recorded before, deleted in one call.
   */
  cancellable: z.boolean(),
  cancelRequested: z.boolean(),
  /**
   * Whether it can be resumed: paused (by its return guard), with its request kept, and not on
   * chosen messages (which keep no ids of what is left). A resume plans it again over what is left.
   */
  resumable: z.boolean().default(false),
  /** How many times it was resumed; its counts run on across them. */
  resumes: z.number().int().nonnegative().default(0),
  error: z.string().nullable(),
  requestedBy: z.string().nullable(),
  startedAt: Instant,
  updatedAt: Instant,
  finishedAt: Instant.nullable(),
});
export type MessageJob = z.infer<typeof MessageJobSchema>;

export const MessageJobListSchema = z.object({ jobs: z.array(MessageJobSchema) });
export type MessageJobList = z.infer<typeof MessageJobListSchema>;

/** `GET …/message-jobs?queue=`: the most recent jobs, newest first. */
export const MessageJobListQuerySchema = z
  .object({ queue: QueueName.optional(), limit: z.coerce.number().int().min(1).max(100).default(20) })
  .strict();
export type MessageJobListQuery = z.infer<typeof MessageJobListQuerySchema>;

/** The owner RPC's request: the job as asked, with the id the gateway gave it and who asked. */
export const MessageJobStartCallSchema = z.object({
  clusterId: Uuid,
  jobId: Uuid,
  queue: QueueName,
  job: StartMessageJobRequestSchema,
  requestedBy: z.string().max(200).nullable(),
  ...BodyFilterCall,
});
export type MessageJobStartCall = z.infer<typeof MessageJobStartCallSchema>;

/** The owner RPC's request to resume a paused job, with who asked (and their masking, for a body filter). */
export const MessageJobResumeCallSchema = z.object({
  clusterId: Uuid,
  jobId: Uuid,
  requestedBy: z.string().max(200).nullable(),
  ...BodyFilterCall,
});
export type MessageJobResumeCall = z.infer<typeof MessageJobResumeCallSchema>;

export const MessageJobImpactCallSchema = MessageJobImpactQuerySchema.extend({
  clusterId: Uuid,
  queue: QueueName,
  ...BodyFilterCall,
}).strict();
export type MessageJobImpactCall = z.infer<typeof MessageJobImpactCallSchema>;
