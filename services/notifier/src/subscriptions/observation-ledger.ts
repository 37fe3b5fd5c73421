import type { ObservationMark, UnobservedPeriod } from '@artemis-studio/contracts';

/** Where a cluster's observation mark is kept: `studio_observations`, shared by every replica. */
export interface ObservationStore {
  /** The mark, or null when there is none; throws when it cannot be read. */
  read(): Promise<ObservationMark | null>;
  write(mark: ObservationMark): Promise<void>;
}

export interface ObservationLedgerDeps {
  store: ObservationStore;
  /** This replica, as the mark names it. */
  owner: string;
  /** Called once per unobserved period, when observation resumes. */
  onUnobserved(period: UnobservedPeriod): void;
  /** How often the mark is refreshed while observing: a crash is dated to within this. */
  refreshMs: number;
  warn(message: string): void;
  now?: () => Date;
}

/** What a mark left `observing` means to the replica that reads it next. */
export const STOPPED_UNANNOUNCED =
  'the notifier holding the subscriptions stopped without handing over (crashed or cut off)';

/**
 * Whether one cluster's notifications are being observed, kept where every replica can read it
 * (ADR-0010). Artemis keeps no notification for an absent subscriber, so a period in which some
 * live node had no subscription is a period whose broker events may be missing; when observation
 * resumes, that period is reported once, dated from the mark: exactly when this replica knew when
 * it stopped, to within `refreshMs` when the previous owner crashed.
 */
export class ObservationLedger {
  private observing = false;
  private refresh?: NodeJS.Timeout;
  /** The last mark this replica wrote (or tried to): it knows better than a store it may not reach. */
  private lastMark?: ObservationMark;
  /** Reads and writes in the order they were asked for. */
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: ObservationLedgerDeps) {}

  /** Every live node is subscribed again (or for the first time): ends the unobserved period, if any. */
  resumed(): void {
    if (this.observing || this.stopped) return;
    this.observing = true;
    const until = this.now();
    this.enqueue(async () => {
      const period = await this.periodEndingAt(until);
      if (period) this.deps.onUnobserved(period);
      await this.write({ observedUntil: until.toISOString(), observing: true, owner: this.deps.owner });
    });
    this.refresh = setInterval(() => this.refreshMark(), this.deps.refreshMs);
    this.refresh.unref();
  }

  /** Some live node has had no subscription since `since`, for `reason`. */
  interrupted(since: Date, reason: string): void {
    if (!this.observing) return;
    this.observing = false;
    clearInterval(this.refresh);
    this.enqueue(() =>
      this.write({ observedUntil: since.toISOString(), observing: false, owner: this.deps.owner, reason }),
    );
  }

  /** This replica lets the cluster go (handover, shutdown): the next owner's period starts now. */
  async stop(reason: string): Promise<void> {
    this.interrupted(this.now(), reason);
    this.stopped = true;
    await this.queue;
  }

  private refreshMark(): void {
    this.enqueue(async () => {
      if (this.observing)
        await this.write({
          observedUntil: this.now().toISOString(),
          observing: true,
          owner: this.deps.owner,
        });
    });
  }

  private async periodEndingAt(until: Date): Promise<UnobservedPeriod | null> {
    let mark = this.lastMark;
    if (!mark) {
      try {
        mark = (await this.deps.store.read()) ?? undefined;
      } catch (err) {
        return {
          from: null,
          until: until.toISOString(),
          reason: `when this cluster was last observed could not be read: ${(err as Error).message}`,
        };
      }
    }
    // Never observed before: nothing can have been missed that anyone was watching for.
    if (!mark) return null;
    const reason = mark.reason ?? (mark.observing ? STOPPED_UNANNOUNCED : 'not known');
    return { from: mark.observedUntil, until: until.toISOString(), reason };
  }

  private async write(mark: ObservationMark): Promise<void> {
    this.lastMark = mark;
    try {
      await this.deps.store.write(mark);
    } catch (err) {
      // The next refresh writes again; a crash before then dates the period from an older mark,
      // which is earlier, so the period reported is longer, never shorter.
      this.deps.warn(`observation mark not written: ${(err as Error).message}`);
    }
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((err: unknown) => this.deps.warn((err as Error).message));
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }
}
