import { globMatcher } from '@artemis-studio/contracts';
import type { NodeTierB } from '../../polling/tier-b';
import type { Reading, RuleCondition } from './conditions';

/** Each node's store-and-forward queues: `$.artemis.internal.sf.<cluster>.<remote node id>`. */
const SF_PREFIX = '$.artemis.internal.sf.';

/** A broker node id, short enough for a subject: its first block is unique in any real cluster. */
const shortId = (id: string) => id.split('-')[0];

/**
 * The link rules' readings from what one tier-B tick read on every live node: their cluster
 * connections, and the store-and-forward queues among their queues. Null when a node's cluster
 * connections went unread this tick: a link could then be down or up, and unknown reads as unknown.
 * `nameOf` names a node by its id. Every subject the tick knows is read, holding or not (a cluster
 * has few), so an alert whose subject is not among them is one whose link is gone.
 */
export function readLinks(
  rule: RuleCondition,
  nodes: readonly NodeTierB[],
  nameOf: (nodeId: string) => string,
  now: Date,
): Reading[] | null {
  if (nodes.some((n) => !n.clusterConnections)) return null;
  // A member by its broker's node id: each node's connections carry its own.
  const byBrokerId = new Map<string, string>();
  for (const n of nodes)
    for (const c of n.clusterConnections!) byBrokerId.set(c.brokerNodeId, nameOf(n.nodeId));
  const memberName = (brokerNodeId: string) => byBrokerId.get(brokerNodeId) ?? shortId(brokerNodeId);
  const matches = globMatcher(rule.subjects);
  const readings = readingsOf(rule, nodes, nameOf, memberName, now);
  return readings.filter((r) => matches(r.subject));
}

function readingsOf(
  rule: RuleCondition,
  nodes: readonly NodeTierB[],
  nameOf: (nodeId: string) => string,
  memberName: (brokerNodeId: string) => string,
  now: Date,
): Reading[] {
  switch (rule.kind) {
    case 'link-down':
      return nodes.flatMap((n) =>
        n.clusterConnections!.map((c) => {
          const others = c.members.filter((m) => m.live !== null && m.brokerNodeId !== c.brokerNodeId);
          // A member's bridge reconnecting: still in `Nodes`, but nothing consumes its store-and-forward queue.
          const bridgeless = new Set(
            n.queues
              .filter((q) => q.name.startsWith(`${SF_PREFIX}${c.name}.`) && q.consumerCount === 0)
              .map((q) => q.name.split('.').at(-1)),
          );
          const unconnected = c.started
            ? others.filter((m) => !(m.brokerNodeId in c.connectedTo) || bridgeless.has(m.brokerNodeId))
            : others;
          return {
            subject: `${nameOf(n.nodeId)}/${c.name}`,
            holds: !c.started || unconnected.length > 0,
            value: unconnected.length,
          };
        }),
      );
    case 'link-backlog':
      return nodes.flatMap((n) =>
        n.queues
          .filter((q) => q.name.startsWith(SF_PREFIX))
          .map((q) => {
            const subject = `${nameOf(n.nodeId)} → ${memberName(q.name.split('.').at(-1)!)}`;
            if (q.messageCount === 0) return { subject, holds: false, value: 0 };
            if (q.firstMessageAt === null || rule.threshold === null)
              return { subject, holds: null, value: null };
            const age = Math.max(0, (now.getTime() - q.firstMessageAt.getTime()) / 1000);
            return { subject, holds: age > rule.threshold, value: age };
          }),
      );
    case 'link-node-left': {
      const clustered = nodes.filter((n) => n.clusterConnections!.length > 0);
      return clustered.map((n) => {
        const own = new Set(n.clusterConnections!.map((c) => c.brokerNodeId));
        const absentFrom = clustered.filter(
          (other) =>
            other !== n &&
            !other.clusterConnections!.some((c) => c.members.some((m) => own.has(m.brokerNodeId))),
        );
        return { subject: nameOf(n.nodeId), holds: absentFrom.length > 0, value: absentFrom.length };
      });
    }
    default:
      return [];
  }
}
