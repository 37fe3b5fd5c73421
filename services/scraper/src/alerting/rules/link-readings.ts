import { globMatcher } from '@artemis-studio/contracts';
import type { NodeTierB } from '../../polling/tier-b';
import { bridgeConnected, type CoreBridgeReading } from '../../topology/core-bridge';
import type { Reading, RuleCondition } from './conditions';

/** Each node's store-and-forward queues: `$.artemis.internal.sf.<cluster>.<remote node id>`. */
const SF_PREFIX = '$.artemis.internal.sf.';

/** The queue in which Artemis keeps what an AMQP mirror has yet to send: `<prefix><connection>`. */
const MIRROR_PREFIX = '$ACTIVEMQ_ARTEMIS_MIRROR_';

/** The member a store-and-forward queue leads to: the broker node id its name ends with. */
const memberOf = (sfQueue: string): string => sfQueue.slice(sfQueue.lastIndexOf('.') + 1);

/** A broker node id, short enough for a subject: its first block is unique in any real cluster. */
const shortId = (id: string) => id.split('-')[0];

/**
 * Each store-and-forward queue holding messages (by node and queue): its acknowledged count when
 * last seen, and since when that count has not moved. Kept by the owner from tick to tick.
 */
export type LinkStalls = Map<string, { acknowledged: number; sinceMs: number }>;

/**
 * The link rules' readings from what one tier-B tick read on every live node: their cluster
 * connections, and the store-and-forward queues among their queues. Null when a node's cluster
 * connections went unread this tick: a link could then be down or up, and unknown reads as unknown.
 * `nameOf` names a node by its id; `stalls` is the owner's memory of the links' backlogs, written
 * here. Every subject the tick knows is read, holding or not (a cluster has few), so an alert
 * whose subject is not among them is one whose link is gone.
 */
export function readLinks(
  rule: RuleCondition,
  nodes: readonly NodeTierB[],
  nameOf: (nodeId: string) => string,
  now: Date,
  stalls: LinkStalls,
): Reading[] | null {
  if (nodes.some((n) => !n.clusterConnections || n.bridges === null || n.brokerConnections === null))
    return null;
  // A member by its broker's node id: each node's connections carry its own.
  const byBrokerId = new Map<string, string>();
  for (const n of nodes)
    for (const c of n.clusterConnections!) byBrokerId.set(c.brokerNodeId, nameOf(n.nodeId));
  const memberName = (brokerNodeId: string) => byBrokerId.get(brokerNodeId) ?? shortId(brokerNodeId);
  const matches = globMatcher(rule.subjects);
  const readings =
    rule.kind === 'link-backlog'
      ? backlogs(rule, nodes, nameOf, memberName, now, stalls)
      : readingsOf(rule, nodes, nameOf);
  return readings.filter((r) => matches(r.subject));
}

function readingsOf(
  rule: RuleCondition,
  nodes: readonly NodeTierB[],
  nameOf: (nodeId: string) => string,
): Reading[] {
  switch (rule.kind) {
    case 'link-down':
      return nodes.flatMap((n) => [
        ...(n.bridges ?? []).map((b) => bridgeReading(n, b, nameOf)),
        // A broker connection says itself whether it is connected; stopped is down too.
        // A peer's connection to this node is listed only while attached: it is its peer's to judge.
        ...(n.brokerConnections ?? [])
          .filter((c) => c.direction === 'outgoing')
          .map((c) => {
            const down = !c.started || !c.connected;
            return { subject: `${nameOf(n.nodeId)}/${c.name}`, holds: down, value: down ? 1 : 0 };
          }),
        ...n.clusterConnections!.map((c) => {
          // The members the connection knows of: in its topology, in `Nodes`, or with a
          // store-and-forward queue. A member whose link broke leaves the topology but stays in
          // `Nodes` while the bridge retries, and its queue then has no consumer (the bridge).
          const links = n.queues.filter((q) => q.name.startsWith(`${SF_PREFIX}${c.name}.`));
          const bridgeless = new Set(links.filter((q) => q.consumerCount === 0).map((q) => memberOf(q.name)));
          const inTopology = new Set(c.members.filter((m) => m.live !== null).map((m) => m.brokerNodeId));
          const known = new Set([
            ...inTopology,
            ...Object.keys(c.connectedTo),
            ...links.map((q) => memberOf(q.name)),
          ]);
          known.delete(c.brokerNodeId);
          const unconnected = [...known].filter(
            (id) => !c.started || !(id in c.connectedTo) || !inTopology.has(id) || bridgeless.has(id),
          );
          return {
            subject: `${nameOf(n.nodeId)}/${c.name}`,
            holds: unconnected.length > 0,
            value: unconnected.length,
          };
        }),
      ]);
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

/**
 * A core bridge is down when stopped, or when its queue has no consumer: a started bridge that
 * cannot reach its target (or whose forwarding address has no binding there) stays `Started` while
 * it retries, and consumes its queue only while connected (docs/artemis.md, "Core bridges").
 */
function bridgeReading(n: NodeTierB, b: CoreBridgeReading, nameOf: (nodeId: string) => string): Reading {
  const down = !b.started || !bridgeConnected(b, n.queues);
  return { subject: `${nameOf(n.nodeId)}/${b.name}`, holds: down, value: down ? 1 : 0 };
}

/**
 * A store-and-forward queue (or a mirror's queue: the same link, AMQP) does not drain when it holds messages and its bridge has acknowledged
 * none of them for `threshold` seconds (its `MessagesAcknowledged` has not moved). Not the head
 * message's age: messages sent without a time (an AMQP client that sets no creation time) have
 * none, and a busy link that drains can hold old messages behind a steady flow.
 */
function backlogs(
  rule: RuleCondition,
  nodes: readonly NodeTierB[],
  nameOf: (nodeId: string) => string,
  memberName: (brokerNodeId: string) => string,
  now: Date,
  stalls: LinkStalls,
): Reading[] {
  const seen = new Set<string>();
  const readings = nodes.flatMap((n) =>
    n.queues
      .filter((q) => q.name.startsWith(SF_PREFIX) || q.name.startsWith(MIRROR_PREFIX))
      .map((q): Reading => {
        const towards = q.name.startsWith(SF_PREFIX)
          ? memberName(memberOf(q.name))
          : `mirror ${q.name.slice(MIRROR_PREFIX.length)}`;
        const subject = `${nameOf(n.nodeId)} → ${towards}`;
        if (q.messageCount === 0) return { subject, holds: false, value: 0 };
        const key = `${n.nodeId}/${q.name}`;
        seen.add(key);
        let stall = stalls.get(key);
        if (!stall || stall.acknowledged !== q.messagesAcknowledged)
          stalls.set(key, (stall = { acknowledged: q.messagesAcknowledged, sinceMs: now.getTime() }));
        const seconds = (now.getTime() - stall.sinceMs) / 1000;
        return rule.threshold === null
          ? { subject, holds: null, value: null }
          : { subject, holds: seconds > rule.threshold, value: seconds };
      }),
  );
  for (const key of stalls.keys()) if (!seen.has(key)) stalls.delete(key);
  return readings;
}
