import type { StrandedReason } from '@artemis-studio/contracts';
import type { NodeTierB } from '../polling/tier-b';
import type { ClusterConnectionReading } from '../topology/cluster-connection';

/** Messages of a queue on a node without consumers while the same queue has consumers elsewhere. */
export interface StrandedCandidate {
  queue: string;
  address: string;
  nodeId: string;
  messages: number;
  oldestMessageAt: Date | null;
  /** The nodes where the queue has consumers (Studio's node ids). */
  consumerNodeIds: string[];
}

/** A candidate with why its messages stay where they are. */
export interface StrandedQueue extends StrandedCandidate {
  reason: StrandedReason;
  detail: string;
}

/** The broker's own queues: its store-and-forward links, management notifications and the like. */
const INTERNAL = [/^\$\.artemis\.internal\./, /^activemq\.notifications$/, /^activemq\.management/];
const internal = (address: string) => INTERNAL.some((p) => p.test(address));

/**
 * Every queue whose messages wait on a node where it has no consumer while it has consumers on
 * another live node: one candidate per holding node. A queue held on one node only is not one:
 * its messages have nowhere else to go.
 */
export function strandedCandidates(reads: readonly NodeTierB[]): StrandedCandidate[] {
  const byQueue = new Map<string, { nodeId: string; q: NodeTierB['queues'][number] }[]>();
  for (const read of reads)
    for (const q of read.queues) {
      if (q.temporary || internal(q.address)) continue;
      const copies = byQueue.get(q.name) ?? [];
      copies.push({ nodeId: read.nodeId, q });
      byQueue.set(q.name, copies);
    }
  const candidates: StrandedCandidate[] = [];
  for (const [queue, copies] of byQueue) {
    const consumerNodeIds = copies.filter((c) => c.q.consumerCount > 0).map((c) => c.nodeId);
    if (consumerNodeIds.length === 0) continue;
    for (const { nodeId, q } of copies)
      if (q.consumerCount === 0 && q.messageCount > 0)
        candidates.push({
          queue,
          address: q.address,
          nodeId,
          messages: q.messageCount,
          oldestMessageAt: q.firstMessageAt,
          consumerNodeIds,
        });
  }
  return candidates;
}

/** What the detector knows of the cluster at one tick, to say why a candidate's messages stay. */
export interface ClusterLinks {
  /** Each live node's cluster connections; null where they could not be read this tick. */
  connections: ReadonlyMap<string, readonly ClusterConnectionReading[] | null>;
  /** Each live node's queues, for its store-and-forward queues. */
  reads: readonly NodeTierB[];
  nodeName(nodeId: string): string;
}

/**
 * Why the messages stay, from the most basic cause to the subtlest: the holding node is in no
 * cluster connection; its connection shares no bindings (max-hops 0); the address does not
 * redistribute (`redistributionDelay` -1, the broker's default, or undefined when unread); it waits
 * out a delay; or the store-and-forward link towards the consumers' node holds messages of its own.
 */
export function explain(
  candidate: StrandedCandidate,
  links: ClusterLinks,
  redistributionDelayMs: number | null | undefined,
): StrandedQueue {
  const at = (reason: StrandedReason, detail: string): StrandedQueue => ({ ...candidate, reason, detail });
  const connections = links.connections.get(candidate.nodeId);
  const consumersOn = candidate.consumerNodeIds.map(links.nodeName).join(', ');
  if (connections === null || connections === undefined)
    return at('unknown', 'its node’s cluster connections could not be read at the last tick');
  if (connections.length === 0)
    return at(
      'not-clustered',
      `its node is in no cluster connection, so the consumers on ${consumersOn} never see these messages`,
    );
  const flat = connections.find((c) => c.maxHops === 0);
  if (flat)
    return at(
      'no-shared-bindings',
      `cluster connection ${flat.name} has max-hops 0: the nodes connect but share no bindings, so nothing is load-balanced or redistributed`,
    );
  if (redistributionDelayMs === undefined)
    return at('unknown', 'the address settings could not be read at the last tick');
  if (redistributionDelayMs === null || redistributionDelayMs < 0)
    return at(
      'redistribution-off',
      `redistribution is off for ${candidate.address} (redistribution-delay -1, the broker's default): the messages stay until a consumer attaches on this node`,
    );
  const link = drainingLink(candidate, connections, links);
  if (link)
    return at(
      'link-not-draining',
      `the store-and-forward queue ${link.name} towards ${link.to} holds ${link.messages} message(s): the link to the consumers' node does not drain`,
    );
  if (redistributionDelayMs > 0)
    return at(
      'redistribution-delayed',
      `redistribution waits ${redistributionDelayMs} ms after the last consumer on this node left`,
    );
  return at('unknown', 'redistribution is on and the links drain: the broker has not moved them yet');
}

/** A store-and-forward queue on the holding node, towards a node with consumers, that holds messages. */
function drainingLink(
  candidate: StrandedCandidate,
  connections: readonly ClusterConnectionReading[],
  links: ClusterLinks,
): { name: string; to: string; messages: number } | null {
  const holder = links.reads.find((r) => r.nodeId === candidate.nodeId);
  for (const consumerNode of candidate.consumerNodeIds) {
    const brokerNodeId = links.connections.get(consumerNode)?.[0]?.brokerNodeId;
    if (!brokerNodeId) continue;
    for (const c of connections) {
      const name = `$.artemis.internal.sf.${c.name}.${brokerNodeId}`;
      const sf = holder?.queues.find((q) => q.name === name);
      if (sf && sf.messageCount > 0)
        return { name, to: links.nodeName(consumerNode), messages: sf.messageCount };
    }
  }
  return null;
}
