import type { TypedKv } from '@artemis-studio/bus';
import { leaseKey, type Lease } from '@artemis-studio/contracts';

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

  constructor(
    private readonly kv: TypedKv<Lease>,
    private readonly service: string,
    readonly owner: string,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Brings ownership in line with the clusters that exist; returns the ids this replica owns now. */
  async reconcile(clusterIds: Iterable<string>): Promise<Set<string>> {
    const wanted = new Set(clusterIds);
    for (const clusterId of wanted) {
      const revision = await this.claim(clusterId);
      if (revision === null) this.owned.delete(clusterId);
      else this.owned.set(clusterId, revision);
    }
    for (const clusterId of [...this.owned.keys()]) {
      if (!wanted.has(clusterId)) await this.release(clusterId);
    }
    return new Set(this.owned.keys());
  }

  /** Gives up every lease held, so another replica takes over at once (graceful shutdown). */
  async releaseAll(): Promise<void> {
    for (const clusterId of [...this.owned.keys()]) await this.release(clusterId);
  }

  private async claim(clusterId: string): Promise<number | null> {
    const key = this.key(clusterId);
    const now = this.now();
    const lease = (acquiredAt: number): Lease => ({
      owner: this.owner,
      acquiredAt: new Date(acquiredAt).toISOString(),
      expiresAt: new Date(now + this.ttlMs).toISOString(),
    });
    const current = await this.kv.get(key);
    if (!current) return this.kv.create(key, lease(now));
    if (current.value.owner === this.owner) {
      return this.kv.update(key, lease(Date.parse(current.value.acquiredAt)), current.revision);
    }
    if (Date.parse(current.value.expiresAt) <= now) return this.kv.update(key, lease(now), current.revision);
    return null;
  }

  private async release(clusterId: string): Promise<void> {
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
