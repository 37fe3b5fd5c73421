import type { Bus } from '@artemis-studio/bus';
import { buckets } from '@artemis-studio/contracts';
import { ClusterTargetQueries, SecretVault, type ClusterTarget } from '@artemis-studio/db';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import { ClusterLeases } from './cluster-leases';

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
  released?(clusterId: string, deleted: boolean, work: W): Promise<void>;
  log: { log(message: string): void; warn(message: string): void };
  /** Called once when this replica stops owning (stop or hand over): what watches for it ends. */
  stopping?(): void | Promise<void>;
}

/**
 * Runs one piece of work per cluster this replica holds the lease of, renewing every third of the
 * lease TTL; work for a changed registration is restarted, for a lost or deleted one stopped. On
 * stop the leases are handed back, so another replica takes over at once instead of after a TTL.
 */
export class OwnedClusters<W extends ClusterWork> {
  private readonly work = new Map<string, W>();
  /** The registrations last read: leases are renewed from them while PostgreSQL cannot be read. */
  private known?: ClusterTarget[];
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private reconciling = false;
  /** A nudge came while reconciling: reconcile again at once after. */
  private nudged = false;

  constructor(private readonly options: OwnedClustersOptions<W>) {}

  get(clusterId: string): W | undefined {
    return this.work.get(clusterId);
  }

  all(): W[] {
    return [...this.work.values()];
  }

  async run(): Promise<void> {
    if (this.stopped) return;
    this.reconciling = true;
    try {
      await this.reconcile();
    } catch (err) {
      this.options.log.warn(`lease renewal failed: ${(err as Error).message}`);
    } finally {
      this.reconciling = false;
    }
    if (this.stopped) return;
    if (this.nudged) {
      this.nudged = false;
      return this.run();
    }
    this.timer = setTimeout(() => void this.run(), this.options.leases.ttlMs / 3);
  }

  /**
   * Reconciles now rather than at the next renewal: a lease was handed back, and the replica
   * handing over keeps its cluster observed until another takes it (up to a third of the TTL
   * later without this).
   */
  nudge(): void {
    if (this.stopped) return;
    if (this.reconciling) {
      this.nudged = true;
      return;
    }
    if (this.timer === undefined) return; // not running yet: run() starts it
    clearTimeout(this.timer);
    void this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.options.stopping?.();
    await Promise.all(this.all().map((w) => w.stop()));
    this.work.clear();
    await this.options.leases.releaseAll();
  }

  /**
   * Make before break: `before` readies each work for it, the leases go back while the work runs
   * on, so another replica takes the clusters over; `each` then waits for each one's successor
   * (or gives up), and the work stops.
   * Without the leases handed back (NATS away) there is no successor to wait for.
   */
  async handOver(
    each: (work: W) => Promise<unknown>,
    before: (work: W) => Promise<unknown> = async () => undefined,
  ): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.options.stopping?.();
    await Promise.all(this.all().map((work) => before(work).catch(() => undefined)));
    let released = true;
    try {
      await this.options.leases.releaseAll();
    } catch (err) {
      released = false;
      this.options.log.warn(`could not hand the leases over: ${(err as Error).message}`);
    }
    await Promise.all(
      this.all().map(async (work) => {
        if (released) await each(work);
        await work.stop();
      }),
    );
    this.work.clear();
  }

  /**
   * The registered clusters, or, while they cannot be read (PostgreSQL away), the ones read last.
   * Without this the leases, which live in NATS, lapsed during a database outage, and another
   * replica could take a cluster over while this one still served it.
   */
  private async registrations(): Promise<ClusterTarget[]> {
    try {
      this.known = await this.options.clusters();
    } catch (err) {
      if (!this.known) throw err;
      this.options.log.warn(
        `cannot read the registered clusters (${(err as Error).message}); renewing the leases held`,
      );
    }
    return this.known;
  }

  private async reconcile(): Promise<void> {
    const targets = new Map((await this.registrations()).map((t) => [t.id, t]));
    const owned = await this.options.leases.reconcile(targets.keys());
    for (const [clusterId, work] of this.work) {
      const target = targets.get(clusterId);
      if (owned.has(clusterId) && target?.revision === work.target.revision) continue;
      await work.stop();
      this.work.delete(clusterId);
      await this.options.released?.(clusterId, !target, work);
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

/**
 * This process's name in leases: STUDIO_REPLICA_ID when set (validated at start), so that a
 * restarted process is the same owner and renews its leases at once; otherwise host, pid and a
 * random part, so that a restarted process is a new owner and waits for its predecessor's leases
 * to lapse. The notifier's waiting is a window with no subscription, and the broker keeps no
 * notification for an absent subscriber: the fault suite lost 1.3 s of them with a 3 s TTL.
 */
export function replicaId(env: NodeJS.ProcessEnv = process.env): string {
  return env.STUDIO_REPLICA_ID || `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
}

export interface OwnedClustersForOptions<W extends ClusterWork> extends Pick<
  OwnedClustersOptions<W>,
  'start' | 'released' | 'log'
> {
  bus: Bus;
  dataSource: DataSource;
  /** The leasing service: replicas of one service share leases, other services have their own. */
  service: string;
  owner: string;
  /** The vault key that opens the registered clusters' credentials. */
  secretKey: string;
  leaseTtlMs: number;
}

/** OwnedClusters over the cluster registry and the `studio_leases` bucket. */
export async function ownedClustersFor<W extends ClusterWork>(
  options: OwnedClustersForOptions<W>,
): Promise<OwnedClusters<W>> {
  const catalog = new ClusterTargetQueries(options.dataSource, SecretVault.fromBase64(options.secretKey));
  const leases = await options.bus.kv(buckets.leases);
  const owned: OwnedClusters<W> = new OwnedClusters({
    leases: new ClusterLeases(leases, options.service, options.owner, options.leaseTtlMs),
    clusters: () => catalog.list(),
    start: options.start,
    released: options.released,
    log: options.log,
    stopping: () => handedBack.stop(),
  });
  // A lease of this service handed back (deleted) is taken at once by whichever replica wins it.
  const handedBack = leases.watch((key, lease) => {
    if (lease === null && key.startsWith(`${options.service}.`)) owned.nudge();
  });
  return owned;
}
