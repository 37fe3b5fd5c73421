import { leaseKey, type Lease } from '@artemis-studio/contracts';
import type { TypedKv } from '@artemis-studio/bus';
import type { ServiceProcess } from '@artemis-studio/testing';
import { setTimeout as sleep } from 'node:timers/promises';

/** Which replica of `service` owns each cluster now (a lease not yet run out). */
export async function ownersOf(
  leases: TypedKv<Lease>,
  service: string,
  clusterIds: string[],
): Promise<Map<string, string>> {
  const byCluster = new Map<string, string>();
  for (const id of clusterIds) {
    const lease = await leases.get(leaseKey(service, id));
    if (lease && Date.parse(lease.value.expiresAt) > Date.now()) byCluster.set(id, lease.value.owner);
  }
  return byCluster;
}

/** Each owner's share of the fleet's queues, largest first (`none` for the clusters nobody owns). */
export function queueSplit(
  byCluster: Map<string, string>,
  clusterIds: string[],
  queueCounts: number[],
): number[] {
  const total = queueCounts.reduce((a, b) => a + b, 0);
  const queuesOf = new Map<string, number>();
  clusterIds.forEach((id, c) => {
    const owner = byCluster.get(id) ?? 'none';
    queuesOf.set(owner, (queuesOf.get(owner) ?? 0) + queueCounts[c]);
  });
  return [...queuesOf.values()].map((q) => q / total).sort((a, b) => b - a);
}

export interface Crash {
  /** The clusters the killed replica owned. */
  orphans: number;
  /** From the SIGKILL until every one of them was owned by another replica (and `ready` said so), or null. */
  movedAfterMs: number | null;
  /** Lease keys taken from an owner before that owner's lease ran out: a cluster owned twice. */
  ownedTwice: string[];
}

/**
 * SIGKILLs `victim` (replica `victimId` of `service`) and waits up to `withinMs` for its clusters to
 * be owned by the others and for `ready` (the new owners at work, where the rig can see it). The
 * lease bucket's history meanwhile shows whether any cluster was taken before its owner's lease
 * ran out.
 */
export async function crashOne(
  leases: TypedKv<Lease>,
  service: string,
  clusterIds: string[],
  victim: { process: ServiceProcess; id: string },
  withinMs: number,
  ready: () => boolean = () => true,
): Promise<Crash> {
  const history = new Map<string, (Lease | null)[]>();
  const watching = leases.watch((key, value) => {
    if (!history.has(key)) history.set(key, []);
    history.get(key)!.push(value);
  });
  const before = await ownersOf(leases, service, clusterIds);
  const orphans = clusterIds.filter((id) => before.get(id) === victim.id);
  const killedAt = Date.now();
  await victim.process.kill();
  let movedAfterMs: number | null = null;
  while (Date.now() - killedAt < withinMs) {
    const now = await ownersOf(leases, service, clusterIds);
    if (orphans.every((id) => now.has(id) && now.get(id) !== victim.id) && ready()) {
      movedAfterMs = Date.now() - killedAt;
      break;
    }
    await sleep(200);
  }
  watching.stop();
  const ownedTwice: string[] = [];
  for (const [key, values] of history) {
    if (!key.startsWith(`${service}.`)) continue;
    for (let i = 1; i < values.length; i++) {
      const [prev, next] = [values[i - 1], values[i]];
      if (!prev || !next || prev.owner === next.owner) continue;
      if (Date.parse(next.acquiredAt) < Date.parse(prev.expiresAt)) ownedTwice.push(key);
    }
  }
  return { orphans: orphans.length, movedAfterMs, ownedTwice };
}
