import { preferredOwners } from '@artemis-studio/platform';

/** Who ranks first for one cluster between two replicas (rendezvous hashing, ADR-0016). */
const ranksFirst = (clusterId: string, a: string, b: string) =>
  preferredOwners([{ id: clusterId, weight: 1 }], [a, b]).get(clusterId);

/**
 * Two replica names for a cluster, `preferred` ranking first of the two. Both are chosen
 * together, so there is always such a pair: searching 50 names for one that outranks a name fixed
 * beforehand found none whenever that name ranked high for the cluster, about one run in 51 (the
 * rebalance test's flake, "waiting for the joining replica observing").
 */
export function replicaPair(clusterId: string, prefix: string): { preferred: string; other: string } {
  const [a, b] = [`${prefix}-a`, `${prefix}-b`];
  return ranksFirst(clusterId, a, b) === a ? { preferred: a, other: b } : { preferred: b, other: a };
}

/**
 * A replica name that outranks `current` (already running) for a cluster. The search goes on until
 * it finds one: few names outrank a replica that ranks near the top, and a bound of 50 found none
 * about once in 51.
 */
export function outranking(clusterId: string, current: string, prefix: string): string {
  for (let i = 0; i < 10_000_000; i++) {
    const name = `${prefix}-${i}`;
    if (ranksFirst(clusterId, current, name) === name) return name;
  }
  throw new Error(`no replica name outranks ${current} for cluster ${clusterId}`);
}
