import type { ClusterTarget } from '@artemis-studio/db';
import type { ClusterWork, OwnedClustersOptions, Ownership } from './cluster-work';
import { preferredOwners, weightOf } from './preferred-owners';

/**
 * How long after a lease runs out the early pass comes: past its expiry on this replica's clock,
 * and past its owner's membership, which it beat just before its last renewal (ADR-0016).
 */
const EXPIRY_MARGIN_MS = 100;

/**
 * Runs one piece of work per cluster this replica holds the lease of, renewing every third of the
 * lease TTL; work for a changed registration is restarted, for a lost or deleted one stopped. On
 * stop the leases are handed back, so another replica takes over at once instead of after a TTL.
 */
export class OwnedClusters<W extends ClusterWork> {
  private readonly work = new Map<string, W>();
  /** Work being handed to its preferred owner, in the background, until it stops. */
  private readonly leaving = new Map<string, Promise<void>>();
  /** Each cluster's preferred owner as last computed: kept while the members cannot be read. */
  private preferred = new Map<string, string>();
  private members = 1;
  /**
   * The reconcile under way, awaited before stopping: one started by a nudge just before a stop
   * renewed (or took back) a lease after the stop had handed it back, and the successor waited
   * for it to lapse while the cluster went unobserved.
   */
  private inFlight?: Promise<void>;
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

  /** What this replica owns now (work being handed over included until it stops). */
  ownership(): Ownership {
    const owned = this.all();
    return {
      clusters: owned.length,
      weight: owned.reduce((sum, w) => sum + weightOf(w.target), 0),
      members: this.members,
    };
  }

  async run(): Promise<void> {
    if (this.stopped) return;
    this.reconciling = true;
    const pass = this.reconcile();
    this.inFlight = pass.then(
      () => undefined,
      () => undefined,
    );
    try {
      await pass;
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
    // One next pass, however this one began: a pass run from outside while another was scheduled
    // would otherwise leave that one behind, a second chain of renewals that stop() does not end
    // (the unit tests, which run passes themselves, waited 20 s on one before Jest could exit).
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), this.nextPassInMs());
  }

  /**
   * A third of the TTL, or sooner: just after a lease held elsewhere runs out. A crashed owner's
   * clusters are then taken within a TTL of its last renewal; at the next renewal they waited up to
   * a third of a TTL more (the scale rig measured 15.1 to 21.4 s with a 15 s TTL).
   */
  private nextPassInMs(): number {
    const regular = this.options.leases.ttlMs / 3;
    const untilExpiry = this.options.leases.msUntilOthersExpire();
    return untilExpiry === null ? regular : Math.min(regular, untilExpiry + EXPIRY_MARGIN_MS);
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
    await this.inFlight;
    await this.options.stopping?.();
    await this.leave();
    await Promise.all([...this.staying().map((w) => w.stop()), ...this.leaving.values()]);
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
    await this.inFlight;
    await this.options.stopping?.();
    const staying = this.staying();
    const released = await this.handBack(staying, before);
    await Promise.all([
      ...staying.map(async (work) => {
        if (released) await each(work);
        await work.stop();
      }),
      ...this.leaving.values(),
    ]);
    this.work.clear();
  }

  /** Leaves the members, readies the work and gives the leases back: true when they were. */
  private async handBack(staying: W[], before: (work: W) => Promise<unknown>): Promise<boolean> {
    if (this.options.reachable?.() === false) {
      this.options.log.warn('NATS is away: the leases are left to lapse within their TTL');
      return false;
    }
    await this.leave();
    await Promise.all(staying.map((work) => before(work).catch(() => undefined)));
    try {
      await this.options.leases.releaseAll();
      return true;
    } catch (err) {
      this.options.log.warn(`could not hand the leases over: ${(err as Error).message}`);
      return false;
    }
  }

  /** The work not already being handed over. */
  private staying(): W[] {
    return [...this.work].filter(([id]) => !this.leaving.has(id)).map(([, work]) => work);
  }

  /** Out of the members first: the others then count without this replica as they take its leases. */
  private async leave(): Promise<void> {
    await this.options.membership
      ?.leave()
      .catch((err) => this.options.log.warn(`could not leave the members: ${(err as Error).message}`));
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
    const registered = await this.registrations();
    const targets = new Map(registered.map((t) => [t.id, t]));
    const { owned, surplus } = await this.options.leases.reconcile(
      targets.keys(),
      await this.preferredOwners(registered),
    );

    for (const clusterId of surplus) {
      const work = this.work.get(clusterId);
      if (!work) await this.options.leases.release(clusterId);
      else if (!this.leaving.has(clusterId)) this.rebalance(work);
    }
    for (const [clusterId, work] of this.work) {
      if (this.leaving.has(clusterId)) continue;
      const target = targets.get(clusterId);
      if (owned.has(clusterId) && target?.revision === work.target.revision) {
        work.refresh?.(target);
        continue;
      }
      await work.stop();
      this.work.delete(clusterId);
      await this.options.released?.(clusterId, !target, work);
      this.options.log.log(`${target ? 'released' : 'forgot deleted'} cluster ${work.target.name}`);
    }
    for (const clusterId of owned) {
      if (this.work.has(clusterId) || surplus.has(clusterId) || this.stopped) continue;
      const target = targets.get(clusterId)!;
      this.work.set(clusterId, this.options.start(target));
      this.options.log.log(`owns cluster ${target.name}`);
    }
  }

  /**
   * Each cluster's preferred owner among the live members, this replica beating first. While the
   * members cannot be read, the last answer stands: renewing the leases held must not wait on it.
   */
  private async preferredOwners(targets: ClusterTarget[]): Promise<Map<string, string>> {
    const membership = this.options.membership;
    if (!membership) return this.preferred;
    try {
      await membership.beat();
      const members = await membership.live();
      if (!members.includes(membership.replica)) members.push(membership.replica);
      this.members = members.length;
      this.preferred = preferredOwners(
        targets.map((t) => ({ id: t.id, weight: weightOf(t) })),
        members,
      );
    } catch (err) {
      this.options.log.warn(
        `cannot read the other replicas (${(err as Error).message}); ownership stays as it is`,
      );
    }
    return this.preferred;
  }

  /**
   * Hands one cluster to its preferred owner in the background; the renewals go on meanwhile. The
   * work stops however the handover ends: a failed one must not leave it running unowned.
   */
  private rebalance(work: W): void {
    const clusterId = work.target.id;
    const handOver = this.options.handOver;
    const leases = this.options.leases;
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await work.stop();
    };
    const done = (async () => {
      try {
        if (handOver) {
          await handOver.before?.(work);
          await leases.release(clusterId);
          await handOver.after(work);
        } else {
          await stop();
          await leases.release(clusterId);
        }
        this.options.log.log(`handed cluster ${work.target.name} to its preferred owner`);
      } catch (err) {
        this.options.log.warn(`handing cluster ${work.target.name} over: ${(err as Error).message}`);
      } finally {
        await stop().catch(() => undefined);
        if (this.work.get(clusterId) === work) this.work.delete(clusterId);
        this.leaving.delete(clusterId);
        await this.options.released?.(clusterId, false, work)?.catch(() => undefined);
      }
    })();
    this.leaving.set(clusterId, done);
  }
}
