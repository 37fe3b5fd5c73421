import { sleep } from '@artemis-studio/timing';
import type { IntakeBuffer, Pending } from '../intake/intake-buffer';
import type { BrokerEventWriterRepository, StoredRow } from './broker-event-writer.repository';

/** An event committed in a batch, with the seq PostgreSQL gave it and its cluster's seq before it. */
export interface StoredEvent {
  pending: Pending;
  seq: number;
  prevSeq: number;
}

interface InFlight {
  batch: Pending[];
  stored: Promise<StoredEvent[]>;
}

export interface BatchWriterDeps {
  buffer: IntakeBuffer;
  writer: Pick<BrokerEventWriterRepository, 'insert'>;
  /** Called after each commit with the stored events, in `seq` order. */
  stored(events: StoredEvent[]): void;
  /** An event PostgreSQL refuses on its own (bad data): acknowledged and counted as dropped. */
  poisoned(pending: Pending, reason: string): void;
  maxBatch: number;
  /** `artemis-studio.events.flush`: the longest an idle writer sleeps before looking again. */
  flushMs(): number;
  /** How long an idle writer waits, once the first events came, for the rest of their burst. */
  gatherMs: number;
  onBatch?(size: number, waitedMs: number): void;
}

/**
 * Writes whatever has accumulated as soon as there is anything (and the rest of its burst, which
 * comes within `gatherMs`): one event alone when quiet, up to `maxBatch` per statement under a
 * storm, with the next batch written while the last one is acknowledged and published. Messages
 * are acknowledged only after their commit. Rejects when the writer connection fails, which ends
 * this writer's term.
 */
export class BatchWriter {
  private stopped = false;

  constructor(private readonly deps: BatchWriterDeps) {}

  async run(): Promise<void> {
    const { buffer, maxBatch } = this.deps;
    let inFlight: InFlight | undefined;
    while (!this.stopped || inFlight) {
      if (!inFlight) {
        await buffer.waitForEvents(this.deps.flushMs());
        if (this.stopped) return;
        // The notifier publishes in batches, and the stream delivers a batch over a few ms: taken
        // at its first event, a batch of 20 went to PostgreSQL as two INSERTs, and on to the
        // gateways as two reads each (docs/benchmarks.md, broker-to-browser).
        if (buffer.size > 0 && buffer.size < maxBatch) await sleep(this.deps.gatherMs);
        inFlight = this.dispatch(buffer.peek(maxBatch));
        if (!inFlight) continue;
      }
      const { batch, stored } = inFlight;
      const events = await stored;
      buffer.remove(batch);
      // The next batch goes to PostgreSQL before this one is acknowledged and published, so the
      // database and this process work at the same time instead of taking turns.
      inFlight = this.stopped ? undefined : this.dispatch(buffer.peek(maxBatch));
      for (const pending of batch) pending.delivery.ack();
      this.deps.onBatch?.(batch.length, Date.now() - batch[0].enqueuedAt);
      this.deps.stored(events);
    }
  }

  /** Ends the loop once the batch in flight is committed, acknowledged and published. */
  stop(): void {
    this.stopped = true;
    this.deps.buffer.wake();
  }

  private dispatch(batch: Pending[]): InFlight | undefined {
    return batch.length > 0 ? { batch, stored: this.insert(batch) } : undefined;
  }

  private async insert(batch: Pending[]): Promise<StoredEvent[]> {
    try {
      const rows = await this.deps.writer.insert(
        batch.map((p) => p.delivery.json),
        { mayBeStored: batch.some((p) => p.delivery.deliveryCount > 1) },
      );
      return withPending(batch, rows);
    } catch (err) {
      // A data exception (SQLSTATE class 22, e.g. a NUL in text) is one bad event, not an outage:
      // find it row by row so the rest are written. Anything else ends this writer's term.
      if (!String((err as { code?: string }).code ?? '').startsWith('22')) throw err;
      const stored: StoredEvent[] = [];
      for (const pending of batch) {
        try {
          stored.push(...withPending([pending], await this.deps.writer.insert([pending.delivery.json])));
        } catch (rowErr) {
          if (!String((rowErr as { code?: string }).code ?? '').startsWith('22')) throw rowErr;
          this.deps.poisoned(pending, (rowErr as Error).message);
        }
      }
      return stored;
    }
  }
}

/**
 * Pairs each stored row with its buffered event (of an event given twice, the first). PostgreSQL
 * gives a uuid back in lower case, whatever case the event carried it in.
 */
function withPending(batch: Pending[], rows: StoredRow[]): StoredEvent[] {
  const byId = new Map<string, Pending>();
  for (const pending of batch) {
    const id = pending.event.eventId.toLowerCase();
    if (!byId.has(id)) byId.set(id, pending);
  }
  return rows.map((row) => ({ pending: byId.get(row.eventId)!, seq: row.seq, prevSeq: row.prevSeq }));
}
