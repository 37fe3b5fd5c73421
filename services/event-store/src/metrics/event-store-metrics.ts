import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { IntakeBuffer } from '../intake/intake-buffer';

/** Every metric the event store exports (on /metrics), made once and handed to what counts it. */
@Injectable()
export class EventStoreMetrics {
  readonly leader: Gauge;
  readonly deferred: Counter;
  readonly redelivered: Counter;
  readonly stored: Counter;
  readonly poisoned: Counter;
  readonly batch: Histogram;
  readonly wait: Histogram;

  constructor(registry: Registry, buffer: IntakeBuffer) {
    this.leader = new Gauge({
      name: 'studio_event_store_writer',
      help: '1 while this replica holds the writer lock',
      registers: [registry],
    });
    this.deferred = new Counter({
      name: 'studio_event_store_deferred_total',
      help: 'Events left in the stream because the buffer was full (redelivered later, not lost)',
      registers: [registry],
    });
    this.redelivered = new Counter({
      name: 'studio_event_store_redelivered_total',
      help: 'Redeliveries of events still buffered',
      registers: [registry],
    });
    this.stored = new Counter({
      name: 'studio_event_store_stored_total',
      help: 'Broker events written',
      registers: [registry],
    });
    this.poisoned = new Counter({
      name: 'studio_event_store_poisoned_total',
      help: 'Events PostgreSQL refused (counted as dropped)',
      registers: [registry],
    });
    this.batch = new Histogram({
      name: 'studio_event_store_batch_size',
      help: 'Events per INSERT',
      buckets: [1, 10, 50, 100, 500, 1000, 2000],
      registers: [registry],
    });
    this.wait = new Histogram({
      name: 'studio_event_store_wait_seconds',
      help: 'How long the oldest event of a batch waited in the buffer',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    });
    new Gauge({
      name: 'studio_event_store_buffered',
      help: 'Events buffered, not yet committed',
      registers: [registry],
      collect() {
        this.set(buffer.size);
      },
    });
  }
}
