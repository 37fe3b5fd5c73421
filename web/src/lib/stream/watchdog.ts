/**
 * How long a stream may stay silent before it counts as dead (ADR-0052: silence is failure). The
 * gateway sends a named `ping` every heartbeat; twice that plus a margin rides out one late ping
 * and a slow proxy without letting a dead socket pass for live for long.
 */
export function watchdogWindowMs(heartbeatMs: number): number {
  return 2 * heartbeatMs + 5000;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const browserTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Fires `expire` when `reset` has not been called for `windowMs()`. */
export class Watchdog {
  private handle: unknown;

  constructor(
    private readonly windowMs: () => number,
    private readonly expire: () => void,
    private readonly timers: Timers = browserTimers,
  ) {}

  reset(): void {
    this.stop();
    this.handle = this.timers.setTimeout(() => {
      this.handle = undefined;
      this.expire();
    }, this.windowMs());
  }

  stop(): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }
}
