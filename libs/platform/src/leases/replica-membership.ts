import type { TypedKv } from '@artemis-studio/bus';
import { memberKey, type Member } from '@artemis-studio/contracts';

/** An entry expired this many TTLs ago is a replica that crashed: removed by whoever sees it. */
const FORGET_AFTER_TTLS = 20;

/**
 * The replicas of one service that are alive now, known from their heartbeats in `studio_members`
 * (ADR-0016). Each beats at every lease renewal: a replica that renews its leases is a member, and
 * one that stopped renewing them stops being one within the same TTL.
 */
export class ReplicaMembership {
  private joinedAt?: string;

  constructor(
    private readonly kv: TypedKv<Member>,
    private readonly service: string,
    /** The Studio installation (its database): members of another one are not counted. */
    private readonly installation: string,
    readonly replica: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Says this replica is alive for another TTL. */
  async beat(): Promise<void> {
    const now = this.now();
    this.joinedAt ??= new Date(now).toISOString();
    await this.kv.put(this.key(this.replica), {
      replica: this.replica,
      joinedAt: this.joinedAt,
      expiresAt: new Date(now + this.ttlMs).toISOString(),
    });
  }

  /** The members alive now, this replica among them once it has beaten. */
  async live(): Promise<string[]> {
    const prefix = memberKey(this.service, this.installation, '');
    // A key written while the bucket is listed can be listed twice.
    const keys = new Set((await this.kv.keys()).filter((k) => k.startsWith(prefix)));
    const now = this.now();
    const live: string[] = [];
    for (const key of keys) {
      const entry = await this.kv.get(key);
      if (!entry) continue;
      const expiresAt = Date.parse(entry.value.expiresAt);
      if (expiresAt > now) live.push(entry.value.replica);
      else if (expiresAt + FORGET_AFTER_TTLS * this.ttlMs < now)
        await this.kv.delete(key).catch(() => undefined);
    }
    return live;
  }

  /** Leaves at once (graceful stop): the others rebalance without waiting for the entry to expire. */
  async leave(): Promise<void> {
    if (this.joinedAt === undefined) return;
    await this.kv.delete(this.key(this.replica));
  }

  private key(replica: string): string {
    return memberKey(this.service, this.installation, replica);
  }
}
