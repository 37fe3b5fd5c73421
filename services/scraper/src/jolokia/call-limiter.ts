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

  /**
   * Waits for the node's next call, for work a person asked for and is waiting on (an action):
   * it spends the same budget as polling, queued instead of refused. Gives up after `maxWaitMs`.
   */
  async acquire(
    nodeKey: string,
    maxWaitMs: number,
    sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
  ): Promise<boolean> {
    const giveUpAt = this.now() + maxWaitMs;
    for (;;) {
      if (this.peek(nodeKey) >= 1) return this.tryAcquire(nodeKey);
      if (this.now() >= giveUpAt) return this.tryAcquire(nodeKey);
      await sleep(Math.max(10, Math.ceil(1000 / this.perSecond)));
    }
  }

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

  /** Tokens the node has now, refilled, without taking one. */
  private peek(nodeKey: string): number {
    const bucket = this.buckets.get(nodeKey);
    if (!bucket) return this.perSecond;
    return Math.min(this.perSecond, bucket.tokens + ((this.now() - bucket.at) / 1000) * this.perSecond);
  }
}
