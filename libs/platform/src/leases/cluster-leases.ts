import type { TypedKv } from '@artemis-studio/bus';
import { leaseKey, type Lease } from '@artemis-studio/contracts';

/** How many TTLs a lease taken over for an absent preferred owner is kept before it is handed on. */
const KEEP_TAKEN_OVER_TTLS = 10;

/**
 * Cluster ownership for one replica of one service (brief: "each cluster is owned by exactly one
 * replica at a time"). Every `reconcile` renews what this replica owns, takes free or expired
 * leases, and gives up leases of clusters that no longer exist. Every write is a compare-and-set
 * on the KV revision, so two replicas racing for a lease cannot both win it.
 *
 * Expiry is judged on each replica's clock against `expiresAt`; replicas are assumed to be
 * NTP-synchronised to well under a TTL.
 */
export class ClusterLeases {
  private readonly owned = new Map<string, number>(); // clusterId -> revision
  /** When this replica first saw a lease free that another replica should take. */
  private readonly freeSince = new Map<string, number>();
  /** When this replica took a lease its preferred owner left free for a TTL. */
  private readonly tookOver = new Map<string, number>();
  /** When the first lease held by another replica runs out, as the last reconcile read them. */
  private othersExpireAt = Infinity;

  constructor(
    private readonly kv: TypedKv<Lease>,
    private readonly service: string,
    readonly owner: string,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Brings ownership in line with the clusters that exist and with each one's preferred owner
   * (`preferred`, from the live members; empty: whoever asks first). Returns what this replica
   * holds now, and, among it, the `surplus` preferred by another live replica: still renewed here
   * until the caller hands each one over (`release`), so handing over is the caller's to order.
   */
  async reconcile(
    clusterIds: Iterable<string>,
    preferred: ReadonlyMap<string, string> = new Map(),
  ): Promise<{ owned: Set<string>; surplus: Set<string> }> {
    const wanted = new Set(clusterIds);
    const surplus = new Set<string>();
    this.othersExpireAt = Infinity;
    for (const clusterId of wanted) {
      const elsewhere = (preferred.get(clusterId) ?? this.owner) !== this.owner;
      const revision = await this.claim(clusterId, elsewhere);
      if (revision === null) this.owned.delete(clusterId);
      else {
        this.owned.set(clusterId, revision);
        // One taken over because nobody else did is kept a while: handed straight back, it would
        // go free again if the two replicas still disagree on who should have it.
        const keptUntil = (this.tookOver.get(clusterId) ?? -Infinity) + KEEP_TAKEN_OVER_TTLS * this.ttlMs;
        if (elsewhere && this.now() >= keptUntil) surplus.add(clusterId);
      }
      if (!elsewhere || revision === null) this.tookOver.delete(clusterId);
    }
    for (const clusterId of [...this.owned.keys()]) {
      if (!wanted.has(clusterId)) await this.release(clusterId);
    }
    for (const clusterId of [...this.freeSince.keys()])
      if (!wanted.has(clusterId)) this.freeSince.delete(clusterId);
    return { owned: new Set(this.owned.keys()), surplus };
  }

  /**
   * How long until the first lease held by another replica runs out, as the last reconcile read
   * them; null when none is. A live owner renews a third of a TTL in, so only a lease nobody renews
   * runs out sooner than the next renewal.
   */
  msUntilOthersExpire(): number | null {
    return this.othersExpireAt === Infinity ? null : Math.max(0, this.othersExpireAt - this.now());
  }

  /** Gives up every lease held, so another replica takes over at once (graceful shutdown). */
  async releaseAll(): Promise<void> {
    for (const clusterId of [...this.owned.keys()]) await this.release(clusterId);
  }

  /**
   * Renews a lease held, and takes a free or expired one: at once when this replica is its
   * preferred owner, after a TTL of it being free when another is. That other replica takes it at
   * once when it agrees; the wait covers a moment when two replicas see the fleet differently
   * (a member's heartbeat seen by one and not yet by the other), so no cluster stays unowned.
   */
  private async claim(clusterId: string, elsewhere: boolean): Promise<number | null> {
    const key = this.key(clusterId);
    const now = this.now();
    const lease = (acquiredAt: number): Lease => ({
      owner: this.owner,
      acquiredAt: new Date(acquiredAt).toISOString(),
      expiresAt: new Date(now + this.ttlMs).toISOString(),
    });
    const current = await this.kv.get(key);
    if (current?.value.owner === this.owner) {
      this.freeSince.delete(clusterId);
      return this.kv.update(key, lease(Date.parse(current.value.acquiredAt)), current.revision);
    }
    const free = !current || Date.parse(current.value.expiresAt) <= now;
    if (!free) {
      this.freeSince.delete(clusterId);
      this.othersExpireAt = Math.min(this.othersExpireAt, Date.parse(current.value.expiresAt));
      return null;
    }
    if (elsewhere) {
      const since = this.freeSince.get(clusterId) ?? now;
      this.freeSince.set(clusterId, since);
      if (now - since < this.ttlMs) return null;
      this.tookOver.set(clusterId, now);
    }
    this.freeSince.delete(clusterId);
    return current ? this.kv.update(key, lease(now), current.revision) : this.kv.create(key, lease(now));
  }

  /** Gives one lease back (if still ours): its preferred owner, watching the bucket, takes it at once. */
  async release(clusterId: string): Promise<void> {
    const revision = this.owned.get(clusterId);
    this.owned.delete(clusterId);
    const current = await this.kv.get(this.key(clusterId));
    // Only delete a lease that is still ours: it may have expired and moved on.
    if (current && current.value.owner === this.owner && current.revision === revision) {
      await this.kv.delete(this.key(clusterId));
    }
  }

  private key(clusterId: string): string {
    return leaseKey(this.service, clusterId);
  }
}
