/**
 * Reconnect delays: exponential from 1 s to 5 min with full jitter (a uniform draw below the
 * exponential bound), so many subscriptions that failed together do not retry together.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly minMs = 1000,
    private readonly maxMs = 300_000,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const bound = Math.min(this.maxMs, this.minMs * 2 ** this.attempt);
    this.attempt++;
    return Math.max(this.minMs / 10, Math.floor(this.random() * bound));
  }

  /** After a healthy subscription: the next failure starts from the floor again. */
  reset(): void {
    this.attempt = 0;
  }
}
