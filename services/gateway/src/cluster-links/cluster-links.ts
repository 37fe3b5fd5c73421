import {
  redistributionSuggestion,
  type ClusterConnection,
  type ClusterLinks,
  type StrandedMessages,
  type StrandedReason,
} from '@artemis-studio/contracts';

/** A registered node as tier A last saw it. */
export interface RegisteredNode {
  name: string;
  role: 'live' | 'backup' | 'unknown';
  reachable: boolean;
  brokerNodeId: string | null;
}

/** A `cluster_connection` row, its members as stored. */
export interface ConnectionRecord {
  node: string;
  name: string;
  started: boolean;
  maxHops: number;
  brokerNodeId: string;
  loadBalancing: string | null;
  members: { brokerNodeId: string; live: string | null; backup: string | null }[];
  connectedTo: Record<string, string>;
  messagesPendingAcknowledgement: number | null;
  messagesAcknowledged: number | null;
  observedAt: Date;
}

/** A `stranded_queue` row with its nodes named. */
export interface StrandedRecord {
  queue: string;
  address: string;
  node: string;
  messages: number;
  oldestMessageAt: Date | null;
  consumersOn: string[];
  reason: StrandedReason;
  detail: string;
  since: Date;
  observedAt: Date;
}

/**
 * The cluster as its brokers see it beside what Studio polls: each connection's members matched to
 * the registered nodes by the broker's node id (a live node and its replica share one), the
 * members no registered node is, the registered live nodes a clustered node's topology lacks, and
 * the connections with max-hops 0.
 */
export function clusterLinksOf(
  registered: readonly RegisteredNode[],
  connections: readonly ConnectionRecord[],
  stranded: readonly StrandedRecord[],
): Omit<ClusterLinks, 'bridges' | 'brokerConnections'> {
  const byBrokerId = new Map<string, string[]>();
  for (const n of registered)
    if (n.brokerNodeId) byBrokerId.set(n.brokerNodeId, [...(byBrokerId.get(n.brokerNodeId) ?? []), n.name]);
  const registeredAs = (brokerNodeId: string) => byBrokerId.get(brokerNodeId)?.join(', ') ?? null;

  const unregistered = new Map<string, ClusterLinks['unregisteredMembers'][number]>();
  for (const c of connections)
    for (const m of c.members) {
      if (byBrokerId.has(m.brokerNodeId)) continue;
      const seen = unregistered.get(m.brokerNodeId) ?? { ...m, seenBy: [] };
      if (!seen.seenBy.includes(c.node)) seen.seenBy.push(c.node);
      unregistered.set(m.brokerNodeId, seen);
    }

  const clustered = new Set(connections.map((c) => c.node));
  const missingFromTopology = registered
    .filter((n) => n.role === 'live' && n.reachable && n.brokerNodeId)
    .flatMap((n) => {
      const absentFrom = [...clustered].filter(
        (other) =>
          other !== n.name &&
          !connections.some(
            (c) => c.node === other && c.members.some((m) => m.brokerNodeId === n.brokerNodeId),
          ),
      );
      return absentFrom.length > 0 ? [{ node: n.name, absentFrom }] : [];
    });

  return {
    connections: connections.map((c): ClusterConnection => ({
      node: c.node,
      name: c.name,
      started: c.started,
      maxHops: c.maxHops,
      brokerNodeId: c.brokerNodeId,
      loadBalancing: c.loadBalancing,
      members: c.members.map((m) => ({ ...m, registeredAs: registeredAs(m.brokerNodeId) })),
      connectedTo: Object.entries(c.connectedTo).map(([brokerNodeId, address]) => ({
        brokerNodeId,
        address,
        registeredAs: registeredAs(brokerNodeId),
      })),
      messagesPendingAcknowledgement: c.messagesPendingAcknowledgement,
      messagesAcknowledged: c.messagesAcknowledged,
      observedAt: c.observedAt.toISOString(),
    })),
    unregisteredMembers: [...unregistered.values()],
    missingFromTopology,
    balancesNothing: connections
      .filter((c) => c.maxHops === 0)
      .map((c) => ({ node: c.node, connection: c.name })),
    stranded: stranded.map(strandedMessages),
  };
}

/** A stored stranded queue as the API says it, with the setting that would let the broker move them. */
export function strandedMessages(s: StrandedRecord): StrandedMessages {
  return {
    queue: s.queue,
    address: s.address,
    node: s.node,
    messages: s.messages,
    oldestMessageAt: s.oldestMessageAt?.toISOString() ?? null,
    consumersOn: s.consumersOn,
    reason: s.reason,
    detail: s.detail,
    suggestion: redistributionSuggestion(s.address, s.reason),
    since: s.since.toISOString(),
    observedAt: s.observedAt.toISOString(),
  };
}
