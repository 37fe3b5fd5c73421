import type { NodeFact } from '../../polling/tick-observer';
import type { NodeFigures } from './conditions';
import { secondsUntil, Trend } from './trend';

/** One node's journal disk usage at one earlier tier-A tick, as `node_sample` keeps it. */
export interface NodeDiskSample {
  node: string;
  atMs: number;
  diskUsage: number;
}

/**
 * What a cluster's node rules need of the ticks before this one: the journal disk's samples for its
 * forecast, started from the samples stored before (a new owner forecasts at its first tick). A
 * role change needs nothing here: the observations carry it, persisted (withRoleHistory).
 */
export class NodeHistory {
  private readonly disks = new Map<string, Trend>();
  private observed = false;

  /** Nothing observed yet: the samples stored before can start the forecasts. */
  get fresh(): boolean {
    return !this.observed;
  }

  /** Earlier disk samples, oldest first. */
  seed(samples: readonly NodeDiskSample[]): void {
    for (const s of samples) this.diskOf(s.node).add(s.atMs, s.diskUsage);
  }

  observe(facts: readonly NodeFact[], now: Date): NodeFigures[] {
    this.observed = true;
    const seen = new Set<string>();
    const figures = facts.map((n) => {
      seen.add(n.name);
      const disk = this.diskOf(n.name);
      if (n.reachable && n.diskUsage !== null) disk.add(now.getTime(), n.diskUsage);
      return {
        ...n,
        diskFullInSeconds:
          n.reachable && n.diskUsage !== null && n.diskLimit !== null
            ? secondsUntil(n.diskUsage, n.diskLimit, disk.perSecond())
            : null,
      };
    });
    for (const name of this.disks.keys()) if (!seen.has(name)) this.disks.delete(name);
    return figures;
  }

  private diskOf(node: string): Trend {
    let disk = this.disks.get(node);
    if (!disk) this.disks.set(node, (disk = new Trend()));
    return disk;
  }
}
