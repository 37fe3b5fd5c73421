import { SAMPLE_HEARTBEAT_MS } from '@artemis-studio/db';
import type { QueueObservation } from './queue-observation';

/** The figures a queue's snapshot holds: all an observation says. */
const sameFigures = (a: QueueObservation, b: QueueObservation) =>
  a.messageCount === b.messageCount &&
  a.messagesAdded === b.messagesAdded &&
  a.messagesAcknowledged === b.messagesAcknowledged &&
  a.consumerCount === b.consumerCount &&
  a.deliveringCount === b.deliveringCount &&
  a.messagesExpired === b.messagesExpired &&
  a.messagesKilled === b.messagesKilled &&
  a.paused === b.paused &&
  a.durable === b.durable &&
  a.temporary === b.temporary &&
  a.address === b.address &&
  a.routingType === b.routingType &&
  (a.firstMessageAt?.getTime() ?? null) === (b.firstMessageAt?.getTime() ?? null);

/** A node's tick split for its one statement: the figures to send, and the queues known by name. */
export interface QueueTick {
  /** New queues, and those whose figures differ from what their snapshot holds. */
  changed: QueueObservation[];
  /** Queues read this tick with the figures their snapshot holds: sent by name only. */
  stored: string[];
}

/**
 * What one live node's queue snapshots hold, as this owner last wrote them (ADR-0024). Most queues
 * do not change between two ticks: their figures need not go to PostgreSQL again, only their names
 * (the statement takes their figures from the snapshots). The owner starts knowing nothing, so its
 * first tick sends everything; a statement that failed wrote nothing and changes nothing here.
 * Once a heartbeat a tick sends everything again: should anything else have written a snapshot
 * (a tick of a replica that lost its lease, still under way), the broker's figures replace it
 * within that time, as they did at every tick before.
 */
export class StoredQueues {
  private stored = new Map<string, QueueObservation>();
  /** When a tick last sent every queue and was written (ms); when the split tick sends all, its time. */
  private allWrittenAt = Number.NEGATIVE_INFINITY;
  private sendingAllAt: number | null = null;

  constructor(private readonly sendAllEveryMs = SAMPLE_HEARTBEAT_MS) {}

  split(queues: readonly QueueObservation[], at: Date): QueueTick {
    this.sendingAllAt = at.getTime() - this.allWrittenAt >= this.sendAllEveryMs ? at.getTime() : null;
    if (this.sendingAllAt !== null) return { changed: [...queues], stored: [] };
    const tick: QueueTick = { changed: [], stored: [] };
    for (const queue of queues) {
      const stored = this.stored.get(queue.name);
      if (stored !== undefined && sameFigures(stored, queue)) tick.stored.push(queue.name);
      else tick.changed.push(queue);
    }
    return tick;
  }

  /** The tick's statement is committed: the snapshots hold these queues' figures, and no others'. */
  wrote(queues: readonly QueueObservation[]): void {
    this.stored = new Map(queues.map((q) => [q.name, q]));
    if (this.sendingAllAt !== null) this.allWrittenAt = this.sendingAllAt;
  }

  /** The snapshots may hold other figures (a queue known by name had none): the next tick sends all. */
  forget(): void {
    this.stored.clear();
    this.allWrittenAt = Number.NEGATIVE_INFINITY;
  }
}
