import { z } from 'zod';
import { Instant } from '../common';
import { QueueRowSchema } from './state';

/**
 * Why messages wait on a node without consumers while their queue has consumers on another
 * (docs/clusters.md): the node is in no cluster connection; its connection shares no bindings
 * (max-hops 0); the address does not redistribute; it waits out a redistribution delay; the
 * store-and-forward link towards the consumers does not drain; or Studio cannot tell.
 */
export const STRANDED_REASONS = [
  'not-clustered',
  'no-shared-bindings',
  'redistribution-off',
  'redistribution-delayed',
  'link-not-draining',
  'unknown',
] as const;
export const StrandedReasonSchema = z.enum(STRANDED_REASONS);
export type StrandedReason = z.infer<typeof StrandedReasonSchema>;

export const StrandedMessagesSchema = z.object({
  queue: z.string(),
  address: z.string(),
  /** The node holding them, as registered. */
  node: z.string(),
  messages: z.number().int(),
  oldestMessageAt: Instant.nullable(),
  /** The nodes where the queue has consumers. */
  consumersOn: z.array(z.string()),
  reason: StrandedReasonSchema,
  detail: z.string(),
  /** The address setting that would let the broker move them, as broker.xml; null when not the cause. */
  suggestion: z.string().nullable(),
  /** Since when they have been seen stranded (continuously, tick after tick). */
  since: Instant,
  observedAt: Instant,
});
export type StrandedMessages = z.infer<typeof StrandedMessagesSchema>;

const MemberSchema = z.object({
  brokerNodeId: z.string(),
  live: z.string().nullable(),
  backup: z.string().nullable(),
  /** The registered node this member is, matched by the broker's node id; null when none is. */
  registeredAs: z.string().nullable(),
});

export const ClusterConnectionSchema = z.object({
  node: z.string(),
  name: z.string(),
  started: z.boolean(),
  maxHops: z.number().int(),
  brokerNodeId: z.string(),
  loadBalancing: z.string().nullable(),
  /** The connection's topology: every member it knows, live and backup, this node included. */
  members: z.array(MemberSchema),
  /** The other members this node's connection is connected to. */
  connectedTo: z.array(
    z.object({ brokerNodeId: z.string(), address: z.string(), registeredAs: z.string().nullable() }),
  ),
  messagesPendingAcknowledgement: z.number().nullable(),
  messagesAcknowledged: z.number().nullable(),
  observedAt: Instant,
});
export type ClusterConnection = z.infer<typeof ClusterConnectionSchema>;

/** A live node's core bridge: from one of its queues to an address on another broker. */
export const CoreBridgeSchema = z.object({
  node: z.string(),
  name: z.string(),
  started: z.boolean(),
  /** It consumed its queue at the last read: `started` stays true while a bridge retries. */
  connected: z.boolean(),
  queueName: z.string(),
  forwardingAddress: z.string().nullable(),
  messagesAcknowledged: z.number().nullable(),
  messagesPendingAcknowledgement: z.number().nullable(),
  observedAt: Instant,
});
export type CoreBridge = z.infer<typeof CoreBridgeSchema>;

/**
 * A live node's broker connection (AMQP): to a mirror or a broker of another site. Outgoing: the
 * node's own (its broker.xml); incoming: a peer's, attached to this node (listed only while it is).
 */
export const BrokerConnectionSchema = z.object({
  node: z.string(),
  name: z.string(),
  direction: z.enum(['outgoing', 'incoming']),
  /** For an incoming one, the broker node id of the peer that opened it. */
  peerBrokerNodeId: z.string().nullable(),
  started: z.boolean(),
  /** Connected to its peer at the last read: false while a started connection retries. */
  connected: z.boolean(),
  /** What its AMQP federation has moved since the broker started; null when it federates nothing. */
  federation: z.object({ messagesSent: z.number(), messagesReceived: z.number() }).nullable(),
  /** What its mirror has yet to send (the broker's queue for it); null when it mirrors nothing. */
  mirror: z
    .object({ queue: z.string(), messages: z.number(), oldestMessageAt: Instant.nullable() })
    .nullable(),
  observedAt: Instant,
});
export type BrokerConnection = z.infer<typeof BrokerConnectionSchema>;

/** The cluster as its brokers see it, beside what Studio polls, and the messages it fails to move. */
export const ClusterLinksSchema = z.object({
  connections: z.array(ClusterConnectionSchema),
  /** Members of a node's topology that no registered node is: brokers Studio does not poll. */
  unregisteredMembers: z.array(
    MemberSchema.omit({ registeredAs: true }).extend({ seenBy: z.array(z.string()) }),
  ),
  /** Registered live nodes that another clustered live node's topology lacks. */
  missingFromTopology: z.array(z.object({ node: z.string(), absentFrom: z.array(z.string()) })),
  /** Cluster connections with max-hops 0: the nodes connect but balance and redistribute nothing. */
  balancesNothing: z.array(z.object({ node: z.string(), connection: z.string() })),
  stranded: z.array(StrandedMessagesSchema),
  bridges: z.array(CoreBridgeSchema),
  brokerConnections: z.array(BrokerConnectionSchema),
});
export type ClusterLinks = z.infer<typeof ClusterLinksSchema>;

/** One queue's figures on one node, within its cluster-wide row. */
const QueueOnNodeSchema = z.object({
  node: z.string(),
  messageCount: z.number(),
  consumerCount: z.number(),
  deliveringCount: z.number(),
  addedPerSecond: z.number().nullable(),
  acknowledgedPerSecond: z.number().nullable(),
  oldestMessageAt: Instant.nullable(),
});

/**
 * A queue once for the whole cluster: its figures summed over the live nodes that hold it (rates
 * null when any node's is unknown), and each node's beside them.
 */
export const ClusterQueueRowSchema = QueueRowSchema.pick({
  name: true,
  address: true,
  routingType: true,
  messageCount: true,
  consumerCount: true,
  deliveringCount: true,
  messagesAdded: true,
  messagesAcknowledged: true,
  messagesExpired: true,
  messagesKilled: true,
  addedPerSecond: true,
  acknowledgedPerSecond: true,
  expiredPerSecond: true,
  killedPerSecond: true,
  /** Paused on any node. */
  paused: true,
  /** Durable on every node. */
  durable: true,
  /** The oldest waiting message on any node. */
  oldestMessageAt: true,
  /** When a figure last changed on any node. */
  changedAt: true,
  /** When its latest node snapshot was written: one that did not change is not rewritten (ADR-0019). */
  observedAt: true,
}).extend({
  nodes: z.array(QueueOnNodeSchema),
  /** Where its messages wait on a node without consumers while it has consumers on another. */
  stranded: z.array(StrandedMessagesSchema),
});
export type ClusterQueueRow = z.infer<typeof ClusterQueueRowSchema>;

export const ClusterQueuePageSchema = z.object({
  items: z.array(ClusterQueueRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ClusterQueuePage = z.infer<typeof ClusterQueuePageSchema>;

/**
 * The address setting that lets the broker move a queue's messages to the node with its
 * consumers; null when the setting is not what keeps them.
 */
export function redistributionSuggestion(address: string, reason: StrandedReason): string | null {
  if (reason !== 'redistribution-off' && reason !== 'redistribution-delayed') return null;
  const match = address.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    '<address-settings>',
    `  <address-setting match="${match}">`,
    '    <!-- in ms after the last consumer on a node left: 0 moves them at once; a few seconds spare a consumer that reconnects -->',
    '    <redistribution-delay>0</redistribution-delay>',
    '  </address-setting>',
    '</address-settings>',
  ].join('\n');
}
