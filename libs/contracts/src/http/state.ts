import { z } from 'zod';
import { BrokerEventSchema, DROP_SOURCES } from '../bus/broker-event';
import { Instant, Uuid } from '../common';

const HealthSchema = z.enum(['HEALTHY', 'DEGRADED', 'DOWN', 'UNKNOWN']);
export type Health = z.infer<typeof HealthSchema>;

export const NodeRoleSchema = z.enum(['live', 'backup', 'unknown']);

/**
 * What cluster health means, for every service that shows it: HEALTHY when every node answers and
 * one is live; DEGRADED when one is live but some node does not answer; DOWN when none is live;
 * UNKNOWN before anything was observed.
 */
export function healthOf(
  nodes: readonly { reachable: boolean; role: z.infer<typeof NodeRoleSchema> }[],
): Health {
  if (nodes.length === 0) return 'UNKNOWN';
  if (!nodes.some((n) => n.role === 'live')) return 'DOWN';
  return nodes.every((n) => n.reachable) ? 'HEALTHY' : 'DEGRADED';
}

const NodeStateSchema = z.object({
  name: z.string(),
  reachable: z.boolean(),
  role: NodeRoleSchema,
  brokerNodeId: z.string().nullable(),
  version: z.string().nullable(),
  uptimeMs: z.number().nullable(),
  /** Client connections open on the node, as last observed. */
  connections: z.number().nullable(),
  replicaSync: z.boolean().nullable(),
  /**
   * The journal's disk usage and the usage past which the broker blocks producers
   * (`max-disk-usage`), as fractions of the disk; memory held by addresses and the global limit
   * past which they page or block, in bytes. Each null when the broker did not say.
   */
  storage: z.object({
    diskUsage: z.number().nullable(),
    diskLimit: z.number().nullable(),
    memoryBytes: z.number().nullable(),
    memoryLimitBytes: z.number().nullable(),
  }),
  /** Why the node is unreachable or refused us, as observed. */
  reason: z.string().nullable(),
  observedAt: Instant.nullable(),
});

export const TopologySchema = z.object({
  clusterId: Uuid,
  health: HealthSchema,
  nodes: z.array(NodeStateSchema),
});
export type Topology = z.infer<typeof TopologySchema>;

const PageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
};

export const QUEUE_SORT_FIELDS = [
  'name',
  'address',
  'messageCount',
  'consumerCount',
  'deliveringCount',
  'messagesAdded',
  'messagesAcknowledged',
  'messagesExpired',
  'messagesKilled',
  'addedPerSecond',
  'acknowledgedPerSecond',
  'expiredPerSecond',
  'killedPerSecond',
  'observedAt',
  'changedAt',
] as const;
/** Queues whose names say what they hold: dead letters, or expired messages. */
export const QUEUE_KINDS = ['dlq', 'expiry'] as const;
export const QueueQuerySchema = z.object({
  ...PageQuery,
  sort: z.enum(QUEUE_SORT_FIELDS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  search: z.string().max(200).optional(),
  /** Exactly this address. */
  address: z.string().max(4096).optional(),
  routingType: z.enum(['ANYCAST', 'MULTICAST']).optional(),
  consumers: z.enum(['with', 'without']).optional(),
  kind: z.enum(QUEUE_KINDS).optional(),
});
export type QueueQuery = z.infer<typeof QueueQuerySchema>;

export const QueueRowSchema = z.object({
  node: z.string(),
  address: z.string(),
  name: z.string(),
  routingType: z.string(),
  messageCount: z.number(),
  consumerCount: z.number(),
  deliveringCount: z.number(),
  messagesAdded: z.number(),
  messagesAcknowledged: z.number(),
  messagesExpired: z.number(),
  messagesKilled: z.number(),
  /** Per second over the last scrape interval; null when unknown (first observation, or the broker restarted). */
  addedPerSecond: z.number().nullable(),
  acknowledgedPerSecond: z.number().nullable(),
  expiredPerSecond: z.number().nullable(),
  killedPerSecond: z.number().nullable(),
  paused: z.boolean(),
  /**
   * A pause made through Studio, and whether it survives a broker restart (`pause(true)`): the
   * broker says a queue is paused, never whether persistently. Null when not paused, or paused by
   * another tool.
   */
  pause: z.object({ persist: z.boolean(), by: z.string().nullable(), at: Instant }).nullable(),
  durable: z.boolean(),
  temporary: z.boolean(),
  /**
   * When the oldest message waiting in the queue was sent, as the broker says (its producer's
   * timestamp); null when the queue is empty, or its head carries no time.
   */
  oldestMessageAt: Instant.nullable(),
  observedAt: Instant,
  /** When a figure of the queue last changed. */
  changedAt: Instant,
});
export type QueueRow = z.infer<typeof QueueRowSchema>;

export const QueuePageSchema = z.object({
  items: z.array(QueueRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type QueuePage = z.infer<typeof QueuePageSchema>;

export const LIVE_LIST_KINDS = ['consumers', 'sessions', 'connections'] as const;
export type LiveListKind = (typeof LIVE_LIST_KINDS)[number];
export const LiveListQuerySchema = z.object({ ...PageQuery });
export type LiveListQuery = z.infer<typeof LiveListQuerySchema>;

/** A live list read fanned out over live nodes: partial results are flagged with each node's failure. */
export const LiveListPageSchema = z.object({
  items: z.array(z.record(z.string(), z.unknown())),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  partial: z.boolean(),
  nodeErrors: z.array(z.object({ node: z.string(), reason: z.string() })),
});
export type LiveListPage = z.infer<typeof LiveListPageSchema>;

export const EventsQuerySchema = z.object({
  type: z.string().max(100).optional(),
  address: z.string().max(4096).optional(),
  queue: z.string().max(4096).optional(),
  node: z.string().max(200).optional(),
  consumer: z.string().max(4096).optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  /** Keyset cursor: events with `seq` below it (newest first). */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type EventsQuery = z.infer<typeof EventsQuerySchema>;

const EventDropsSchema = z.object({
  source: z.enum(DROP_SOURCES),
  dropped: z.number().int().positive(),
  firstAt: Instant,
  lastAt: Instant,
});
export type EventDrops = z.infer<typeof EventDropsSchema>;

export const EventsPageSchema = z.object({
  items: z.array(BrokerEventSchema),
  nextCursor: z.number().int().nullable(),
  /** Events this cluster lost at any bound; never silent (non-negotiable 2). */
  dropped: z.number().int().nonnegative(),
  /** The same losses by where they happened, with the period each covers (first to last report). */
  drops: z.array(EventDropsSchema),
});
export type EventsPage = z.infer<typeof EventsPageSchema>;

export const StreamQuerySchema = z.object({
  clusterId: Uuid,
  topics: z.string().max(500).optional(),
  lastEventId: z.coerce.number().int().nonnegative().optional(),
});
