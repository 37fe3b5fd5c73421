/**
 * A per-node call budget (non-negotiable 1): a token bucket per node, refilled at `perSecond`
 * with a burst of the same size. A refused call is counted, never queued: the caller reports the
 * node as limited and tries again on its next tick.
 */
export class CallLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly onRefused: (nodeKey: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  tryAcquire(nodeKey: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(nodeKey) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(nodeKey, bucket);
    if (bucket.tokens < 1) {
      this.onRefused(nodeKey);
      return false;
    }
    bucket.tokens -= 1;
    return true;
  }
}
