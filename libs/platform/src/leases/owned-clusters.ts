import type { ClusterTarget } from '@artemis-studio/db';
import type { ClusterLeases } from './cluster-leases';

/** What a service runs for a cluster it owns. */
export interface ClusterWork {
  readonly target: ClusterTarget;
  stop(): void | Promise<void>;
}

export interface OwnedClustersOptions<W extends ClusterWork> {
  leases: ClusterLeases;
  /** The registered clusters, read at every renewal: registrations are picked up without a restart. */
  clusters(): Promise<ClusterTarget[]>;
  start(target: ClusterTarget): W;
  /** After a cluster's work stopped: `deleted` when it is no longer registered at all. */
  released?(clusterId: string, deleted: boolean): Promise<void>;
  log: { log(message: string): void; warn(message: string): void };
}

/**
 * Runs one piece of work per cluster this replica holds the lease of, renewing every third of the
 * lease TTL; work for a changed registration is restarted, for a lost or deleted one stopped. On
 * stop the leases are handed back, so another replica takes over at once instead of after a TTL.
 */
export class OwnedClusters<W extends ClusterWork> {
  private readonly work = new Map<string, W>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: OwnedClustersOptions<W>) {}

  get(clusterId: string): W | undefined {
    return this.work.get(clusterId);
  }

  all(): W[] {
    return [...this.work.values()];
  }

  async run(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.reconcile();
    } catch (err) {
      this.options.log.warn(`lease renewal failed: ${(err as Error).message}`);
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.run(), this.options.leases.ttlMs / 3);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all(this.all().map((w) => w.stop()));
    this.work.clear();
    await this.options.leases.releaseAll();
  }

  private async reconcile(): Promise<void> {
    const targets = new Map((await this.options.clusters()).map((t) => [t.id, t]));
    const owned = await this.options.leases.reconcile(targets.keys());
    for (const [clusterId, work] of this.work) {
      const target = targets.get(clusterId);
      if (owned.has(clusterId) && target?.revision === work.target.revision) continue;
      await work.stop();
      this.work.delete(clusterId);
      await this.options.released?.(clusterId, !target);
      this.options.log.log(`${target ? 'released' : 'forgot deleted'} cluster ${work.target.name}`);
    }
    for (const clusterId of owned) {
      if (this.work.has(clusterId) || this.stopped) continue;
      const target = targets.get(clusterId)!;
      this.work.set(clusterId, this.options.start(target));
      this.options.log.log(`owns cluster ${target.name}`);
    }
  }
}
