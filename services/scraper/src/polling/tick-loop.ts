/**
 * A tick still running after this long (or three intervals, if longer) is said in the log, with
 * the step it is on, and again when it ends: a poll that waits without an error (a lock in
 * PostgreSQL, a socket never freed) otherwise leaves every figure of the cluster frozen unsaid.
 */
export const STALLED_TICK_MS = 10_000;

export type Tier = 'tier A' | 'tier B';

interface TickLoopDeps {
  /** The cluster's name and id, for the log lines. */
  cluster: { id: string; name: string };
  log: { warn(message: string, fields?: { clusterId: string }): void };
}

/**
 * Runs each tier's ticks one after another at its interval (read before each wait, so a changed
 * setting applies at once), says a tick that stalls, and stops between two ticks.
 */
export class TickLoops {
  private readonly timers = new Set<NodeJS.Timeout>();
  /** What each tier's tick is doing now, for the stall warning. */
  private readonly steps: Record<Tier, string> = { 'tier A': 'starting', 'tier B': 'starting' };
  private stopped = false;

  constructor(private readonly deps: TickLoopDeps) {}

  /** Says what the tier's tick does now: the stall warning names it. */
  step(tier: Tier, doing: string): void {
    this.steps[tier] = doing;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Ticks `run` at `interval()`; `afterFirst` once the first tick ended (tier B starts after tier A). */
  loop(tier: Tier, run: () => Promise<void>, interval: () => number, afterFirst?: () => void): void {
    const { cluster, log } = this.deps;
    const fields = { clusterId: cluster.id };
    const tick = async (first: boolean) => {
      if (this.stopped) return;
      const started = Date.now();
      this.steps[tier] = 'starting';
      let stalled = false;
      const watch = setTimeout(
        () => {
          stalled = true;
          log.warn(
            `cluster ${cluster.name}: ${tier} tick still running after ${Math.round((Date.now() - started) / 1000)} s, ${this.steps[tier]}`,
            fields,
          );
        },
        Math.max(STALLED_TICK_MS, 3 * interval()),
      );
      // Only a warning: it must not hold a stopping process open.
      watch.unref?.();
      try {
        await run();
      } catch (err) {
        log.warn(`cluster ${cluster.name}: poll failed: ${(err as Error).message}`, fields);
      } finally {
        clearTimeout(watch);
      }
      if (stalled)
        log.warn(
          `cluster ${cluster.name}: ${tier} tick ended after ${Math.round((Date.now() - started) / 1000)} s`,
          fields,
        );
      if (first) afterFirst?.();
      if (this.stopped) return;
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          void tick(false);
        },
        Math.max(0, interval() - (Date.now() - started)),
      );
      this.timers.add(timer);
    };
    void tick(true);
  }
}
