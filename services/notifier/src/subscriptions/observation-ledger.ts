import type { ObservationMark, UnobservedPeriod } from '@artemis-studio/contracts';
import { sleep } from '@artemis-studio/timing';

/** A mark as stored, with the revision a compare-and-set names. */
interface StoredMark {
  mark: ObservationMark;
  revision: number;
}

/** Where a cluster's observation mark is kept: `studio_observations`, shared by every replica. */
export interface ObservationStore {
  /** The mark, or null when there is none; throws when it cannot be read. */
  read(): Promise<StoredMark | null>;
  write(mark: ObservationMark): Promise<void>;
  /** Writes only over the mark at `revision`: false when another replica wrote since. */
  replace(mark: ObservationMark, revision: number): Promise<boolean>;
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

/** What a handover mark no longer refreshed means. */
export const HANDOVER_INTERRUPTED =
  'the notifier handing the cluster over stopped before its successor was observing';

/** How often a replica handing over refreshes its mark and looks for its successor's. */
const HANDOVER_REFRESH_MS = 250;

/** How soon an unread mark is read again, doubling up to MARK_RETRY_MAX_MS while the bus is away. */
const MARK_RETRY_FIRST_MS = 250;
const MARK_RETRY_MAX_MS = 4000;

/**
 * Whether one cluster's notifications are being observed, kept where every replica can read it
 * (ADR-0010). Artemis keeps no notification for an absent subscriber, so a period in which some
 * live node had no subscription is a period whose broker events may be missing; when observation
 * resumes, that period is reported once, dated from the mark: exactly when this replica knew when
 * it stopped, to within `refreshMs` when the previous owner crashed.
 */
export class ObservationLedger {
  private observing = false;
  /** Since when the period open now began (interrupted()), while one is. */
  private openSince?: Date;
  private refresh?: NodeJS.Timeout;
  /** The last mark this replica wrote (or tried to): it knows better than a store it may not reach. */
  private lastMark?: ObservationMark;
  /** Reads and writes in the order they were asked for. */
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  /** The successor's mark replaced ours in a handover: the mark is no longer ours to write. */
  private handedOver = false;
  /** Ends a wait for the bus when this replica lets the cluster go. */
  private readonly stopping = new AbortController();

  constructor(private readonly deps: ObservationLedgerDeps) {}

  /**
   * Every live node is subscribed again (or for the first time): ends the unobserved period, if
   * any. `heldSince`: since when Studio's rings on every live node have held every notification
   * (ADR-0015); what was sent after it is read from them, so the period ends there.
   */
  resumed(heldSince?: Date): void {
    if (this.observing || this.stopped) return;
    this.observing = true;
    this.openSince = undefined;
    const until = this.now();
    const end = heldSince && heldSince < until ? heldSince : until;
    this.enqueue(async () => {
      const period = await this.periodEndingAt(end);
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
    this.openSince = since;
    clearInterval(this.refresh);
    this.enqueue(async () => {
      await this.write({
        observedUntil: since.toISOString(),
        observing: false,
        owner: this.deps.owner,
        reason,
      });
    });
  }

  /**
   * This replica lets the cluster go (shutdown, a lost lease): the next owner's period starts now.
   * After a handover the mark is the successor's, and nothing is written.
   */
  async stop(reason: string): Promise<void> {
    if (!this.handedOver) this.interrupted(this.now(), reason);
    this.stopped = true;
    this.stopping.abort();
    clearInterval(this.refresh);
    await this.queue;
  }

  /**
   * Make before break (ADR-0014), first step, before the lease is given back: the mark says this
   * replica observes and is handing over, so a successor that reads it at once reports no period.
   */
  async announceHandover(): Promise<void> {
    await this.queue;
    if (!this.observing || this.stopped) return;
    clearInterval(this.refresh);
    await this.write(this.handoverMark());
  }

  /**
   * Then this replica keeps observing, refreshing its handover mark every HANDOVER_REFRESH_MS,
   * until its successor's mark replaces it, or `deadlineMs`. True when the successor took over:
   * the subscriptions may then close with no gap between them. `abandon` ends the wait early: no
   * replica is there to take over.
   */
  async handOver(deadlineMs: number, abandon?: AbortSignal): Promise<boolean> {
    await this.queue;
    if (!this.observing || this.stopped) return false;
    clearInterval(this.refresh);
    const deadline = this.now().getTime() + deadlineMs;
    // A subscription lost meanwhile ends the handover: the mark then says so (interrupted()).
    while (this.observing && !abandon?.aborted && this.now().getTime() < deadline) {
      try {
        const stored = await this.deps.store.read();
        if (stored && stored.mark.owner !== this.deps.owner) return (this.handedOver = true);
        const mark = this.handoverMark();
        // Compare-and-set: a successor's mark written since our read is never overwritten.
        if (!stored) await this.write(mark);
        else if (await this.deps.store.replace(mark, stored.revision)) this.lastMark = mark;
        else return (this.handedOver = true);
      } catch (err) {
        this.deps.warn(`handover mark not written: ${(err as Error).message}`);
      }
      await sleep(HANDOVER_REFRESH_MS, abandon);
    }
    return false;
  }

  private handoverMark(): ObservationMark {
    return {
      observedUntil: this.now().toISOString(),
      observing: true,
      owner: this.deps.owner,
      handingOver: true,
    };
  }

  /**
   * A period missed while the cluster stays observed: a live node left (a failover) after another
   * had taken over, and what the node that left held undelivered went with it.
   */
  missed(from: Date, until: Date, reason: string): void {
    if (from >= until) return;
    this.enqueue(async () =>
      this.deps.onUnobserved({ from: from.toISOString(), until: until.toISOString(), reason }),
    );
  }

  /**
   * A period is open, and what it missed began earlier than it says: a live node left whose
   * successor's subscription had opened the period first. The earlier part is stated on its own.
   */
  reachBack(from: Date, reason: string): void {
    const open = this.openSince;
    if (this.observing || !open || from >= open) return;
    this.missed(from, open, reason);
    this.openSince = from;
  }

  /**
   * Dates the mark now rather than at the next refresh: the rings have just started holding, and
   * a successor must not read the time before that (the mark's last refresh) as the end of what
   * this replica observed, or it states a period that was observed in full.
   */
  refreshNow(): void {
    if (this.observing) this.refreshMark();
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
      const read = await this.markBefore(until);
      if ('unread' in read)
        return {
          from: null,
          until: until.toISOString(),
          reason: `when this cluster was last observed could not be read: ${read.unread}`,
        };
      mark = read.mark;
    }
    // Never observed before, or observed by a predecessor until after this replica subscribed (or
    // the rings started holding): nothing can have been missed.
    if (!mark || Date.parse(mark.observedUntil) >= until.getTime()) return null;
    const reason =
      mark.reason ??
      (mark.handingOver ? HANDOVER_INTERRUPTED : mark.observing ? STOPPED_UNANNOUNCED : 'not known');
    return { from: mark.observedUntil, until: until.toISOString(), reason };
  }

  /**
   * The mark left by whoever observed before this replica subscribed. A failed read is the bus
   * being away (a malformed mark reads as none), so it is read again until it can be, or until this
   * replica lets the cluster go: a period with an unknown start, stated at once, would claim a gap
   * for a cluster that may have been observed throughout (a first observation has no mark at all),
   * and a period cannot be published before the bus is back anyway.
   */
  private async markBefore(
    subscribedAt: Date,
  ): Promise<{ mark: ObservationMark | undefined } | { unread: string }> {
    for (let attempt = 0; ; attempt++) {
      try {
        const mark = (await this.deps.store.read())?.mark;
        if (mark?.handingOver && mark.owner !== this.deps.owner)
          return { mark: await this.handedOverTo(subscribedAt, mark) };
        return { mark };
      } catch (err) {
        const message = (err as Error).message;
        if (this.stopped) return { unread: message };
        if (attempt === 0) this.deps.warn(`observation mark not read, reading again: ${message}`);
        await sleep(Math.min(MARK_RETRY_MAX_MS, MARK_RETRY_FIRST_MS * 2 ** attempt), this.stopping.signal);
      }
    }
  }

  /**
   * A predecessor is handing the cluster over: it observed until its mark's time, and refreshes
   * it while it lives. A refresh dated after this replica's subscriptions came up means there was
   * no gap (undefined); a mark that stops moving means it died first, and dates the period.
   */
  private async handedOverTo(
    subscribedAt: Date,
    mark: ObservationMark,
  ): Promise<ObservationMark | undefined> {
    const deadline = this.now().getTime() + 8 * HANDOVER_REFRESH_MS;
    let latest = mark;
    for (;;) {
      if (Date.parse(latest.observedUntil) >= subscribedAt.getTime()) return undefined;
      if (!latest.handingOver || latest.owner === this.deps.owner || this.now().getTime() >= deadline)
        return latest;
      await sleep(HANDOVER_REFRESH_MS / 2);
      latest = (await this.deps.store.read())?.mark ?? latest;
    }
  }

  private async write(mark: ObservationMark): Promise<boolean> {
    this.lastMark = mark;
    try {
      await this.deps.store.write(mark);
      return true;
    } catch (err) {
      // The next refresh writes again; a crash before then dates the period from an older mark,
      // which is earlier, so the period reported is longer, never shorter.
      this.deps.warn(`observation mark not written: ${(err as Error).message}`);
      return false;
    }
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((err: unknown) => this.deps.warn((err as Error).message));
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }
}
