import type { ClusterTarget } from '@artemis-studio/db';
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
 * same answer on every replica without talking), then bounded by load so the replicas carry about
 * the same weight. Each cluster first goes to the member ranking it first; a member loaded past
 * its even share (and the slack) then gives clusters, heaviest first, to the next member in their
 * ranking with room for them (or, when none has room, to the least loaded if that evens the two
 * out). A member joining takes the clusters that rank it first and little
 * else moves; one leaving gives away its own.
 */
export function preferredOwners(
  clusters: readonly WeightedCluster[],
  members: readonly string[],
): Map<string, string> {
  const owners = new Map<string, string>();
  const live = [...new Set(members)].sort();
  if (live.length === 0) return owners;
  const capacity = (clusters.reduce((sum, c) => sum + c.weight, 0) / live.length) * (1 + SLACK);
  const load = new Map(live.map((m) => [m, 0]));
  const ranking = new Map<string, string[]>();
  for (const cluster of clusters) {
    const ranked = live
      .map((member) => ({ member, score: rank(cluster.id, member) }))
      .sort((a, b) => b.score - a.score || a.member.localeCompare(b.member))
      .map((r) => r.member);
    ranking.set(cluster.id, ranked);
    owners.set(cluster.id, ranked[0]);
    load.set(ranked[0], load.get(ranked[0])! + cluster.weight);
  }
  const heaviestFirst = [...clusters].sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id));
  const byLoad = () => [...live].sort((a, b) => load.get(b)! - load.get(a)! || a.localeCompare(b));
  // Each move lowers the sum of the squared loads, so this ends.
  for (let moved = true; moved;) {
    moved = false;
    for (const member of byLoad()) {
      for (const cluster of heaviestFirst) {
        if (load.get(member)! <= capacity) break;
        if (owners.get(cluster.id) !== member) continue;
        const ranked = ranking.get(cluster.id)!;
        // The next in its ranking with room; else, when none has room (a few heavy clusters), the
        // least loaded, if the move evens the two out.
        const least = byLoad().at(-1)!;
        const to =
          ranked.slice(ranked.indexOf(member) + 1).find((m) => load.get(m)! + cluster.weight <= capacity) ??
          (load.get(least)! + cluster.weight < load.get(member)! ? least : undefined);
        if (!to) continue;
        owners.set(cluster.id, to);
        load.set(member, load.get(member)! - cluster.weight);
        load.set(to, load.get(to)! + cluster.weight);
        moved = true;
      }
    }
  }
  return owners;
}

/** A member's rank for a cluster: the first 48 bits of a SHA-256 of both, the same everywhere. */
function rank(clusterId: string, member: string): number {
  return createHash('sha256').update(`${clusterId}\u0000${member}`).digest().readUIntBE(0, 6);
}

/** A registered cluster's weight, from its nodes and the queues it was last seen to hold. */
export const weightOf = (target: Pick<ClusterTarget, 'nodes' | 'queueCount'>): number =>
  clusterWeight(target.nodes.length, target.queueCount ?? 0);
