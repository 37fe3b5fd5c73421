import type { NodeFact, NodeFigures } from './conditions';
import { secondsUntil, Trend } from './trend';

interface NodeMemory {
  disk: Trend;
  /** The last role the node was seen in (live or backup), and since when it holds it. */
  role: 'live' | 'backup' | null;
  roleChangedAt: Date | null;
}

/**
 * What a cluster's node rules need of the ticks before this one: the journal disk's samples for
 * its forecast, and each node's last known role, to see a failover or failback. Kept in memory by
 * the owner: after a takeover a forecast waits for new samples, and a role change that happened
 * during the takeover is not seen (the broker event of it is in the history).
 */
export class NodeHistory {
  private readonly nodes = new Map<string, NodeMemory>();

  observe(facts: readonly NodeFact[], now: Date): NodeFigures[] {
    const seen = new Set<string>();
    const figures = facts.map((n) => {
      seen.add(n.name);
      let memory = this.nodes.get(n.name);
      if (!memory) this.nodes.set(n.name, (memory = { disk: new Trend(), role: null, roleChangedAt: null }));
      // An unreachable node's role is unknown: the change is seen once it answers in its new role.
      if (n.role !== 'unknown') {
        if (memory.role !== null && memory.role !== n.role) memory.roleChangedAt = now;
        memory.role = n.role;
      }
      if (n.reachable && n.diskUsage !== null) memory.disk.add(now.getTime(), n.diskUsage);
      return {
        ...n,
        roleChangedAt: memory.roleChangedAt,
        diskFullInSeconds:
          n.reachable && n.diskUsage !== null && n.diskLimit !== null
            ? secondsUntil(n.diskUsage, n.diskLimit, memory.disk.perSecond())
            : null,
      };
    });
    for (const name of this.nodes.keys()) if (!seen.has(name)) this.nodes.delete(name);
    return figures;
  }
}
