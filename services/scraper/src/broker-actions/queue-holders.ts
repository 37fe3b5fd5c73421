import { RpcError } from '@artemis-studio/bus';
import { OWNER_FAILURES } from '@artemis-studio/contracts';
import type { ClusterTargetNode } from '@artemis-studio/db';
import type { JolokiaResponse, JolokiaTarget } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL } from '../jolokia/broker-lanes';
import { findQueue, parseFound, type QueueState } from './queue-action-calls';
import type { ActionJolokia } from './queue-actions';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';

/** A live node holding a queue, as a lookup found it: where to call, and the queue's MBean and state. */
export interface QueueHolder {
  node: ClusterTargetNode;
  broker: string;
  target: JolokiaTarget;
  found: QueueState;
}

/**
 * Every live node holding the queue, looked up by name whatever its address. A node that cannot be
 * asked, or whose broker name is not known yet, holds nothing as far as a read can tell.
 */
export async function queueHolders(
  jolokia: ActionJolokia,
  cluster: ClusterNodes,
  queue: string,
): Promise<QueueHolder[]> {
  const holders: QueueHolder[] = [];
  for (const node of cluster.liveNodes()) {
    const broker = cluster.brokerName(node.id);
    if (!broker) continue;
    const target = cluster.jolokiaTarget(node);
    const [lookup] = await jolokia
      .bulk(target, [findQueue(broker, queue)], MANAGEMENT_CALL)
      .catch(() => [{ status: 0 } as JolokiaResponse]);
    const found = lookup.status === 200 || lookup.status === 404 ? parseFound(lookup) : null;
    if (found) holders.push({ node, broker, target, found });
  }
  return holders;
}

/** The holder named, or the first; a 404 naming what is missing otherwise. */
export function chosenHolder(holders: QueueHolder[], queue: string, node?: string): QueueHolder {
  const named = `queue '${queue.slice(0, 200)}'`;
  if (holders.length === 0) throw new RpcError(OWNER_FAILURES.notFound, `${named} is on no live node`);
  const chosen = node ? holders.find((h) => h.node.name === node) : holders[0];
  if (!chosen) throw new RpcError(OWNER_FAILURES.notFound, `${named} is not on node ${node}`);
  return chosen;
}

/** Which queue of the cluster a read on one node answers for, and the nodes that hold it. */
export const readOf = (
  call: { clusterId: string; queue: string },
  chosen: QueueHolder,
  holders: readonly QueueHolder[],
) => ({
  clusterId: call.clusterId,
  queue: call.queue,
  node: chosen.node.name,
  nodes: holders.map((h) => h.node.name),
});

/** How long a lookup is trusted, and how many are kept. */
const REMEMBERED_MS = 30_000;
const REMEMBERED_MAX = 1_000;

/**
 * Where each queue was found, for a short while. The lookup is a pattern query over every MBean of
 * the broker: on a broker of 10,000 queues it is the dearest part of a browse (the bench measured
 * a page at 1.31x the broker's own call with it, ADR-0012). Kept per set of live nodes, so a
 * failover looks again; a caller that finds the MBean gone forgets it and looks again.
 */
export class RememberedHolders {
  private readonly entries = new Map<string, { holders: QueueHolder[]; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async holders(jolokia: ActionJolokia, cluster: ClusterNodes, queue: string): Promise<QueueHolder[]> {
    const key = this.key(cluster, queue);
    const known = this.entries.get(key);
    if (known && this.now() - known.at < REMEMBERED_MS) return known.holders;
    const holders = await queueHolders(jolokia, cluster, queue);
    this.entries.delete(key);
    if (holders.length > 0) this.entries.set(key, { holders, at: this.now() });
    // A Map iterates in insertion order: the first key is the oldest.
    if (this.entries.size > REMEMBERED_MAX) this.entries.delete(this.entries.keys().next().value!);
    return holders;
  }

  forget(cluster: ClusterNodes, queue: string): void {
    this.entries.delete(this.key(cluster, queue));
  }

  private key(cluster: ClusterNodes, queue: string): string {
    const nodes = cluster
      .liveNodes()
      .map((n) => `${n.id}:${cluster.brokerName(n.id)}`)
      .join(',');
    return `${cluster.target.id}|${nodes}|${queue}`;
  }
}
