import { RpcError } from '@artemis-studio/bus';
import { OWNER_FAILURES } from '@artemis-studio/contracts';
import type { ClusterTargetNode } from '@artemis-studio/db';
import type { JolokiaResponse, JolokiaTarget } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL } from './broker-lanes';
import { findQueue, parseFound, type QueueState } from './queue-action-calls';
import type { ActionCluster, ActionJolokia } from './queue-actions';

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
  cluster: ActionCluster,
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
