import type { ClusterTargetNode } from '@artemis-studio/db';
import type { NodeObservation } from './node-observation';

/**
 * Which registered nodes were last seen live, no longer answer, and have not been taken over: no
 * answering live node serves their broker (by node id, the same on a live node and its backup).
 * Such a node may be back before Studio polls it, or serve clients Studio cannot reach; what it
 * sends meanwhile is not observed, and the live-node set says so (`unseen`). An unreachable node
 * has no id of its own, so each id is remembered while its node answers; a node whose id was never
 * read here (this replica took the cluster over while it was down) counts as unseen.
 */
export class UnseenLiveNodes {
  private readonly brokerIds = new Map<string, string>();

  /** The tick's observations, and the rows it loaded (an id an earlier owner read). */
  of(
    observations: readonly NodeObservation[],
    loaded: readonly NodeObservation[],
    nodes: readonly ClusterTargetNode[],
  ): { name: string; since: string | null }[] {
    for (const o of [...loaded, ...observations])
      if (o.reachable && o.brokerNodeId) this.brokerIds.set(o.nodeId, o.brokerNodeId);
    const served = new Set(
      observations.flatMap((o) =>
        o.reachable && o.role === 'live' && o.brokerNodeId ? [o.brokerNodeId] : [],
      ),
    );
    const names = new Map(nodes.map((n) => [n.id, n.name]));
    return observations
      .filter((o) => !o.reachable && o.lastRole === 'live' && !served.has(this.brokerIds.get(o.nodeId) ?? ''))
      .flatMap((o) => {
        const name = names.get(o.nodeId);
        return name ? [{ name, since: o.lastOkAt?.toISOString() ?? null }] : [];
      });
  }
}
