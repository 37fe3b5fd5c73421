import { createHash } from 'node:crypto';

/** A registered cluster and what observing it costs, in the units `clusterWeight` gives. */
export interface WeightedCluster {
  id: string;
  weight: number;
}

/**
 * How far above an even share a replica may be loaded before a cluster goes to its next choice:
 * two replicas stay within 52.5/47.5 plus at most one cluster.
 */
const SLACK = 0.05;

/**
 * What a cluster costs its owner: a node is a poll and a subscription, a queue a row read and
 * written at every tier-B tick. Queue counts are rounded to two significant digits, so a queue
 * made or deleted does not move clusters between replicas; only a real change of size does.
 */
export function clusterWeight(nodes: number, queues: number): number {
  const magnitude = queues < 100 ? 1 : 10 ** (Math.floor(Math.log10(queues)) - 1);
  return Math.max(1, nodes) + Math.round(queues / magnitude) * magnitude;
}

/**
 * Each cluster's preferred owner among the live replicas of one service: rendezvous hashing
 * (every replica ranks the members by a hash of cluster and member, and the same inputs give the
 * same answer on every replica without talking), bounded by load so the replicas carry about the
 * same weight. The heaviest clusters are placed first; each goes to the highest-ranked member with
 * room for it, or, when none has, to the least loaded. A member joining or leaving moves mostly
 * the clusters that rank it first, about 1/N of them.
 */
export function preferredOwners(
  clusters: readonly WeightedCluster[],
  members: readonly string[],
): Map<string, string> {
  const owners = new Map<string, string>();
  const live = [...new Set(members)].sort();
  if (live.length === 0) return owners;
  const total = clusters.reduce((sum, c) => sum + c.weight, 0);
  const capacity = (total / live.length) * (1 + SLACK);
  const load = new Map(live.map((m) => [m, 0]));
  const heaviestFirst = [...clusters].sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id));
  for (const cluster of heaviestFirst) {
    const ranked = live
      .map((member) => ({ member, score: rank(cluster.id, member) }))
      .sort((a, b) => b.score - a.score || a.member.localeCompare(b.member))
      .map((r) => r.member);
    const roomy = ranked.find((m) => load.get(m)! + cluster.weight <= capacity);
    const owner =
      roomy ?? ranked.reduce((least, m) => (load.get(m)! < load.get(least)! ? m : least), ranked[0]);
    owners.set(cluster.id, owner);
    load.set(owner, load.get(owner)! + cluster.weight);
  }
  return owners;
}

/** A member's rank for a cluster: the first 48 bits of a SHA-256 of both, the same everywhere. */
function rank(clusterId: string, member: string): number {
  return createHash('sha256').update(`${clusterId}\u0000${member}`).digest().readUIntBE(0, 6);
}
