import type { Delivery } from '@artemis-studio/bus';
import type { RawBrokerEvent } from '@artemis-studio/contracts';

export interface Pending {
  event: RawBrokerEvent;
  delivery: Delivery;
  enqueuedAt: number;
}

/**
 * Events taken from the stream and not yet committed, in delivery order, bounded by
 * `artemis-studio.events.buffer-size` (read at each offer). Intake never waits on PostgreSQL: a
 * full buffer refuses the event, which stays in the stream to be redelivered, so nothing is lost.
 */
export class IntakeBuffer {
  private readonly entries = new Map<number, Pending>();
  private waiter?: () => void;

  constructor(private readonly capacity: () => number) {}

  /** `redelivered`: the stream sent an event again that is still waiting here (its ack window expired). */
  offer(event: RawBrokerEvent, delivery: Delivery, now = Date.now()): 'accepted' | 'redelivered' | 'full' {
    const existing = this.entries.get(delivery.streamSeq);
    if (existing) {
      existing.delivery = delivery;
      return 'redelivered';
    }
    if (this.entries.size >= this.capacity()) return 'full';
    this.entries.set(delivery.streamSeq, { event, delivery, enqueuedAt: now });
    this.waiter?.();
    return 'accepted';
  }

  /** The oldest waiting events, up to `max`; they stay until `remove`d after their commit. */
  peek(max: number): Pending[] {
    const batch: Pending[] = [];
    for (const pending of this.entries.values()) {
      if (batch.length === max) break;
      batch.push(pending);
    }
    return batch;
  }

  remove(batch: Pending[]): void {
    for (const pending of batch) this.entries.delete(pending.delivery.streamSeq);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Ends a `waitForEvents` early (the writer is stopping). */
  wake(): void {
    this.waiter?.();
  }

  /** Resolves when something arrives, after `ms`, or on `wake`. */
  waitForEvents(ms: number): Promise<void> {
    if (this.entries.size > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiter = done;
    });
  }
}
