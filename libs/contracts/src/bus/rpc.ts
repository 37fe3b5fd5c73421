import { z } from 'zod';
import { Uuid } from '../common';
import { BrokerEventSchema, DropReportSchema } from './broker-event';
import { EventsPageSchema, EventsQuerySchema, LIVE_LIST_KINDS, LiveListPageSchema } from '../http/state';
import { QueueActionCallSchema, QueueActionResultSchema } from '../http/queue-actions';
import { QueueBrowseCallSchema, QueueMessagesPageSchema } from '../http/queue-messages';
import {
  QueueExportCallSchema,
  QueueExportPartSchema,
  QueueImportCallSchema,
  QueueImportPartSchema,
} from '../http/message-export';
import { BrokerChangeCallSchema, BrokerChangeResultSchema } from '../http/broker-changes';
import { AlertRuleTestSchema, CreateAlertRuleRequestSchema } from '../http/alert-rules';
import { DeadLetterGroupsCallSchema, DeadLetterGroupsSchema } from '../http/dead-letter-groups';
import {
  MessageJobImpactCallSchema,
  MessageJobImpactSchema,
  MessageJobSchema,
  MessageJobStartCallSchema,
  MessageJobResumeCallSchema,
} from '../http/message-jobs';

/** A request/reply endpoint on `studio.v1.rpc.<name>`, served by one queue group. */
export interface RpcDef<Req extends z.ZodType = z.ZodType, Reply extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly request: Req;
  readonly reply: Reply;
  /** Served per key on `studio.v1.rpc.<name>.<key>` (only the key's owner answers), not by a queue group. */
  readonly keyedBy?: 'clusterId';
}
export type RequestOf<R extends RpcDef> = z.infer<R['request']>;
export type ReplyOf<R extends RpcDef> = z.infer<R['reply']>;

const rpc = <Req extends z.ZodType, Reply extends z.ZodType>(
  name: string,
  request: Req,
  reply: Reply,
  keyedBy?: 'clusterId',
) => ({ name, request, reply, ...(keyedBy ? { keyedBy } : {}) }) as RpcDef<Req, Reply>;

export const REPLAY_LIMIT_MAX = 500;

export const rpcs = {
  /**
   * Last-Event-ID replay: events after the cursor, ascending by `seq`; the oldest `limit` of them,
   * or with `newest` the most recent `limit` (a client gone longer than the cap, ADR-0027).
   * With `newest`, `skipped` counts the events after the cursor left out by the limit.
   */
  eventsSince: rpc(
    'event-store.since',
    z.object({
      clusterId: Uuid,
      afterSeq: z.number().int().nonnegative(),
      limit: z.number().int().min(1).max(REPLAY_LIMIT_MAX),
      newest: z.boolean().optional(),
    }),
    z.object({ events: z.array(BrokerEventSchema), skipped: z.number().int().nonnegative().optional() }),
  ),
  /**
   * The newest seq stored for a cluster (0 when none). A gateway's new feed reads it before its
   * first client replays, so even the feed's first live event is checked for a hole before it.
   */
  newestSeq: rpc(
    'event-store.newest-seq',
    z.object({ clusterId: Uuid }),
    z.object({ seq: z.number().int().nonnegative() }),
  ),
  eventsHistory: rpc(
    'event-store.history',
    z.object({ clusterId: Uuid, query: EventsQuerySchema }),
    EventsPageSchema,
  ),
  /** Adds a drop report to the cluster's persistent `dropped` counter; idempotent per reportId. */
  recordDrops: rpc(
    'event-store.record-drops',
    DropReportSchema,
    z.object({ dropped: z.number().int().nonnegative() }),
  ),
  /**
   * Runs the retention reaper now; answers how many events it deleted one by one, and how many
   * days' partitions it dropped whole (their events are not counted: that would read each one).
   */
  reapEvents: rpc(
    'event-store.reap',
    z.object({}),
    z.object({
      removed: z.number().int().nonnegative(),
      daysDropped: z.number().int().nonnegative().optional(),
    }),
  ),
  liveList: rpc(
    'scraper.live-list',
    z.object({
      clusterId: Uuid,
      kind: z.enum(LIVE_LIST_KINDS),
      page: z.number().int().min(1),
      pageSize: z.number().int().min(1).max(500),
    }),
    LiveListPageSchema,
    'clusterId',
  ),
  /** One queue action (or its dry run) on every live node holding the queue, by the cluster's owner. */
  queueAction: rpc('scraper.queue-action', QueueActionCallSchema, QueueActionResultSchema, 'clusterId'),
  /** One page of a queue's messages on one node, bodies as the broker shows them (cut at its limit). */
  queueBrowse: rpc('scraper.queue-browse', QueueBrowseCallSchema, QueueMessagesPageSchema, 'clusterId'),
  /** The next part of a queue's export, read once over AMQP 1.0 by a browsing receiver on the owner. */
  queueExport: rpc('scraper.queue-export', QueueExportCallSchema, QueueExportPartSchema, 'clusterId'),
  /** Messages of an export sent to a queue over AMQP by the owner, in order, each as it was typed. */
  queueImport: rpc('scraper.queue-import', QueueImportCallSchema, QueueImportPartSchema, 'clusterId'),
  /** A queue or an address created, an address deleted, or a message sent, by the cluster's owner. */
  brokerChange: rpc('scraper.broker-change', BrokerChangeCallSchema, BrokerChangeResultSchema, 'clusterId'),
  /** Starts a message job (move, copy, retry, delete) and answers it as started; it goes on in batches. */
  messageJobStart: rpc('scraper.message-job-start', MessageJobStartCallSchema, MessageJobSchema, 'clusterId'),
  /** A paused message job planned again over what is left, and run on from its counts. */
  messageJobResume: rpc(
    'scraper.message-job-resume',
    MessageJobResumeCallSchema,
    MessageJobSchema,
    'clusterId',
  ),
  /** How many messages a message job would touch, counted by the broker; nothing changes. */
  messageJobImpact: rpc(
    'scraper.message-job-impact',
    MessageJobImpactCallSchema,
    MessageJobImpactSchema,
    'clusterId',
  ),
  /** A dead-letter or expiry queue's messages grouped by the queue they came from. */
  deadLetterGroups: rpc(
    'scraper.dead-letter-groups',
    DeadLetterGroupsCallSchema,
    DeadLetterGroupsSchema,
    'clusterId',
  ),
  /** A rule read against the owner's last figures of the cluster; nothing stored, nobody told. */
  alertRuleTest: rpc(
    'scraper.alert-rule-test',
    z.object({ clusterId: Uuid, rule: CreateAlertRuleRequestSchema }),
    AlertRuleTestSchema,
    'clusterId',
  ),
} as const;

/**
 * What a cluster's owner (the scraper replica holding its lease) answers, on
 * `studio.v1.rpc.<name>.<clusterId>`: served as one table for each cluster it holds, and for no
 * other. Adding an action is an entry here, a handler in the scraper and a route in the gateway.
 */
export const ownerRpcs = {
  liveList: rpcs.liveList,
  queueAction: rpcs.queueAction,
  queueBrowse: rpcs.queueBrowse,
  queueExport: rpcs.queueExport,
  queueImport: rpcs.queueImport,
  brokerChange: rpcs.brokerChange,
  messageJobStart: rpcs.messageJobStart,
  messageJobResume: rpcs.messageJobResume,
  messageJobImpact: rpcs.messageJobImpact,
  deadLetterGroups: rpcs.deadLetterGroups,
  alertRuleTest: rpcs.alertRuleTest,
} as const;

/**
 * How an owner RPC fails, as its NATS service error code; the gateway answers each with one HTTP
 * status. No responder at all (no replica owns the cluster) is 503, no answer in time 504.
 */
export const OWNER_FAILURES = {
  /** The request makes no sense to the broker (a name or filter it rejects). */
  invalid: 400,
  /** What the request names is on no live node. */
  notFound: 404,
  /** The broker refused it (the queue has consumers, it exists already, ...). */
  refused: 409,
  /** The broker's management lock is held (AMQ229245): retryable. */
  busy: 423,
  /** No live node could be reached or answered. */
  unreachable: 502,
} as const;
