import type { Bus } from '@artemis-studio/bus';
import { channels, rpcs, subjects, type DropReport, type RawBrokerEvent } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { Backoff, sleep } from '@artemis-studio/timing';
import type { CreditGate } from './credit-gate';

export interface PublisherMetrics {
  published(count: number): void;
  dropped(clusterId: string, count: number): void;
  buffered(size: number): void;
}

/**
 * What the broker is told once an event is on the stream, or dropped and counted: the notification
 * is then accepted, and only then leaves the broker's queue. `kept`: the broker keeps a notification
 * never accepted for the next reader (Studio's durable ring); a temporary subscription's dies with it.
 */
export interface Receipt {
  accept(): void;
  kept: boolean;
}

interface Buffered {
  event: RawBrokerEvent;
  /** The event as published: built to fit the contract where it entered (the normaliser). */
  json: string;
  receipt?: Receipt;
  /** A record of an unobserved period: held past the buffer's bound (see enqueueUnobserved). */
  pastBound?: true;
}

/**
 * Publishes awaited together. A batch waits for its slowest acknowledgement, so a larger one
 * spends fewer round trips: one of 256 at a time drained a ring's backlog at 1,446/s (3.3 times
 * its arrival), one of 1,024 at 1,872/s (4.3 times); two of 1,024 on their way at once did no
 * better, 1,718 to 1,820/s (docs/benchmarks.md, studio-away).
 */
const IN_FLIGHT = 1024;
/**
 * How long a first event waits for others before it is published. At a steady 1,000/s each event
 * otherwise went alone: a socket write to NATS, a read of its acknowledgement, a disposition to the
 * broker, each its own, and the event store and gateways downstream took them one at a time too.
 * Every batch costs each step of the way a socket write or read (the event store an INSERT, each
 * gateway a write per client), so the linger sets the whole pipeline's CPU per event: at 1,000/s,
 * 20 ms against 5 ms cut the event store's by a third, the gateway's by two fifths and this
 * service's by a tenth, for 12 ms more at the median from broker to browser (ADR-0017).
 */
const LINGER_MS = 20;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;

/**
 * Carries broker events to the STUDIO_EVENTS stream. Intake never waits on NATS: events wait in a
 * bounded buffer (also while the stream is full and refuses them). The subscriptions' credit comes
 * from a pool the buffer's size (the credit gate, ADR-0014), so the brokers hold what the buffer
 * could not. Past its capacity (the gate's hold limit spent) an event is dropped and counted for
 * its cluster, and the counts are
 * reported to the event store, so the loss reaches the events API (non-negotiable 2). Publishes
 * are pipelined; a failed one keeps its message id, so a retry of an event the stream already
 * has is discarded as a duplicate.
 */
export class EventPublisher {
  private readonly buffer: Buffered[] = [];
  /** How many of the buffered are records of unobserved periods, outside the bound. */
  private pastBound = 0;
  /** Drops not yet reported, per cluster; a report in flight keeps its id until acknowledged. */
  private readonly unreported = new Map<string, number>();
  private readonly inFlightReports = new Map<string, DropReport>();
  private pumping = false;
  private lingering?: NodeJS.Timeout;
  private readonly retry = new Backoff({ minMs: RETRY_MIN_MS, maxMs: RETRY_MAX_MS });
  private stopped = false;
  private reportTimer?: NodeJS.Timeout;

  constructor(
    private readonly bus: Pick<Bus, 'publishDurableJson' | 'request'>,
    private readonly capacity: () => number,
    private readonly metrics: PublisherMetrics,
    private readonly log: { warn(message: string): void },
    private readonly gate?: CreditGate,
  ) {
    this.reportTimer = setInterval(() => void this.reportDrops(), 1000);
    this.reportTimer.unref();
  }

  /** Queues an event, `json` its checked encoding; false (and counted) when the buffer is full. */
  enqueue(event: RawBrokerEvent, json: string, receipt?: Receipt): boolean {
    if (this.withinBound() >= this.capacity()) {
      this.drop(event.clusterId, 1);
      receipt?.accept();
      return false;
    }
    this.buffer.push({ event, json, receipt });
    this.pushed();
    return true;
  }

  /**
   * Queues Studio's record of an unobserved period, past the buffer's bound when it is full: it is
   * what tells of a loss, and a drop count says how many events went, never when nothing was
   * observed. There is one per cluster and period, taking no credit from the brokers. Dropped with
   * the rest, the 24 periods stated by subscriptions that came up while NATS was away went untold.
   */
  enqueueUnobserved(event: RawBrokerEvent): void {
    // Built here from what this service knows, not received (unobserved-event.spec keeps it valid).
    this.buffer.push({ event, json: JSON.stringify(event), pastBound: true });
    this.pastBound++;
    this.pushed();
  }

  /**
   * The broker notifications buffered, which the bound and the credit pool count. A record taking
   * room in them was no longer there for credit already granted: the notifications it stood for
   * arrived to a full buffer and were dropped (the back-pressure test, 3 of them, when other
   * clusters' subscriptions stated their periods as NATS came back).
   */
  private withinBound(): number {
    return this.buffer.length - this.pastBound;
  }

  /** Drops not yet acknowledged by the stream, per cluster (reported or waiting to be). */
  pendingDrops(): Map<string, number> {
    const pending = new Map(this.unreported);
    for (const report of this.inFlightReports.values())
      pending.set(report.clusterId, (pending.get(report.clusterId) ?? 0) + report.count);
    return pending;
  }

  /** Tries to flush for `graceMs`; what is still buffered then is counted as dropped and reported. */
  async stop(graceMs = 5000): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.buffer.length > 0 && Date.now() < deadline) await sleep(50);
    this.stopped = true;
    clearInterval(this.reportTimer);
    clearTimeout(this.lingering);
    // Never accepted, a notification from a durable ring goes to the next owner: not lost.
    this.pastBound = 0;
    for (const { event, receipt } of this.buffer.splice(0)) if (!receipt?.kept) this.drop(event.clusterId, 1);
    await this.reportDrops();
  }

  private pushed(): void {
    this.bufferedNow();
    this.schedulePump();
  }

  private bufferedNow(): void {
    this.metrics.buffered(this.buffer.length);
    this.gate?.bufferedNow(this.withinBound());
  }

  private drop(clusterId: string, count: number): void {
    this.unreported.set(clusterId, (this.unreported.get(clusterId) ?? 0) + count);
    this.metrics.dropped(clusterId, count);
  }

  /** Publishes at once when a batch is full, else after the linger: a busy pump takes what came meanwhile. */
  private schedulePump(): void {
    if (this.pumping) return;
    if (this.buffer.length >= IN_FLIGHT) {
      clearTimeout(this.lingering);
      this.lingering = undefined;
      void this.pump();
      return;
    }
    this.lingering ??= setTimeout(() => {
      this.lingering = undefined;
      void this.pump();
    }, LINGER_MS);
  }

  private async pump(): Promise<void> {
    if (this.pumping || this.stopped) return;
    this.pumping = true;
    try {
      while (this.buffer.length > 0 && !this.stopped) {
        const batch = this.buffer.slice(0, IN_FLIGHT);
        const results = await Promise.allSettled(
          batch.map(({ event: e, json }) =>
            this.bus.publishDurableJson(channels.eventRaw, subjects.eventRaw(e.clusterId), json, {
              msgId: e.eventId,
            }),
          ),
        );
        batch.forEach((b, i) => results[i].status === 'fulfilled' && b.receipt?.accept());
        const failed = batch.filter((_, i) => results[i].status === 'rejected');
        this.pastBound -= batch.filter((b, i) => b.pastBound && results[i].status === 'fulfilled').length;
        // Failed events keep their place at the head, in order, ahead of anything that arrived since.
        this.buffer.splice(0, batch.length, ...failed);
        this.metrics.published(batch.length - failed.length);
        this.bufferedNow();
        if (failed.length > 0) {
          const reason = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult)
            .reason as Error;
          const wait = this.retry.next();
          this.log.warn(
            `${failed.length} events not acknowledged by the stream (${reason?.message}); retrying in ${wait} ms`,
          );
          await sleep(wait);
        } else {
          this.retry.reset();
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private async reportDrops(): Promise<void> {
    for (const [clusterId, count] of this.unreported) {
      if (this.inFlightReports.has(clusterId)) continue;
      this.unreported.delete(clusterId);
      this.inFlightReports.set(clusterId, {
        reportId: randomUUID(),
        clusterId,
        source: 'notifier',
        count,
        reason: 'notifier buffer full: NATS unreachable or slower than the broker',
        ts: new Date().toISOString(),
      });
    }
    await Promise.all(
      [...this.inFlightReports.values()].map(async (report) => {
        try {
          await this.bus.request(rpcs.recordDrops, report);
          this.inFlightReports.delete(report.clusterId);
        } catch {
          // Kept with the same id: the event store recognises a retry of a report it already counted.
        }
      }),
    );
  }
}
