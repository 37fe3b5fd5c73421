import { z } from 'zod';
import { Uuid } from '../common';
import { BrokerEventSchema, DropReportSchema } from './broker-event';
import { EventsPageSchema, EventsQuerySchema, LIVE_LIST_KINDS, LiveListPageSchema } from '../http/state';

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
  /** Runs the retention reaper now; answers how many events it removed. */
  reapEvents: rpc('event-store.reap', z.object({}), z.object({ removed: z.number().int().nonnegative() })),
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
} as const;
