import { Bus, type Stoppable } from '@artemis-studio/bus';
import { EVENT_STORE_CONSUMER, channels, subjects } from '@artemis-studio/contracts';
import {
  BUS,
  DatabaseService,
  InstallationGuard,
  SERVICE_CONFIG,
  SettingsService,
  type ServiceConfig,
} from '@artemis-studio/platform';
import { sleep, withTimeout } from '@artemis-studio/timing';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { IntakeBuffer } from '../intake/intake-buffer';
import { EventStoreMetrics } from '../metrics/event-store-metrics';
import { BrokerEventRepository } from '../history/broker-event.repository';
import { BatchWriter } from './batch-writer';
import { storedEventBody } from './stored-event';
import { BrokerEventWriterRepository } from './broker-event-writer.repository';

/** Rows per INSERT statement under a storm. */
const MAX_BATCH = 2000;
/** How long an idle writer waits for the rest of a burst the stream is delivering. */
const BURST_GATHER_MS = 3;
/** The longest shutdown waits for the writer's term to end. */
const SHUTDOWN_WAIT_MS = 10_000;
/** How often a standby replica asks for the writer lock. */
const STANDBY_POLL_MS = 1000;

/**
 * The event store's writer role. Every replica competes for the writer lock; the holder consumes
 * the shared durable consumer of STUDIO_EVENTS into a bounded buffer and writes it in batches,
 * acknowledging after each commit and publishing the stored events on `event.stored` in `seq`
 * order. The others stand by (and serve queries) until the writer's connection ends.
 */
@Injectable()
export class EventStoreWriterService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventWriter');
  private stopped = false;
  private running?: Promise<void>;
  private current?: { writer: BrokerEventWriterRepository; batchWriter: BatchWriter; consumer: Stoppable };
  /** Aborted at shutdown: ends a standby's sleep at once. */
  private readonly stopping = new AbortController();
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    private readonly database: DatabaseService,
    private readonly settings: SettingsService,
    private readonly buffer: IntakeBuffer,
    private readonly queries: BrokerEventRepository,
    private readonly metrics: EventStoreMetrics,
    private readonly installation: InstallationGuard,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.compete();
  }

  get isWriter(): boolean {
    return this.current !== undefined;
  }

  private async compete(): Promise<void> {
    // The durable consumer is shared by every replica: a second installation must not join it.
    await this.installation.whenAlone();
    await this.database.whenReady();
    await this.bus.ready();
    while (!this.stopped) {
      let writer: BrokerEventWriterRepository | null = null;
      let lost: (err: Error) => void = () => undefined;
      const connectionLost = new Promise<never>((_, reject) => (lost = reject));
      connectionLost.catch(() => undefined);
      try {
        writer = await BrokerEventWriterRepository.tryAcquire(this.config.databaseUrl, (err) => lost(err));
      } catch (err) {
        this.logger.warn(`cannot reach PostgreSQL for the writer lock: ${(err as Error).message}`);
      }
      if (!writer) {
        await sleep(STANDBY_POLL_MS, this.stopping.signal);
        continue;
      }
      // Shut down while the lock was being taken: without this, the term would start after the
      // shutdown hook had found no term to stop, and the service would never finish closing.
      if (this.stopped) {
        await writer.release();
        break;
      }
      try {
        await this.write(writer, connectionLost);
      } catch (err) {
        if (!this.stopped) this.logger.warn(`writer term ended: ${(err as Error).message}`);
      } finally {
        await this.endTerm(writer);
      }
    }
  }

  private async write(writer: BrokerEventWriterRepository, connectionLost: Promise<never>): Promise<void> {
    this.logger.log('holds the writer lock: consuming STUDIO_EVENTS');
    this.metrics.leader.set(1);
    const batchWriter = new BatchWriter({
      buffer: this.buffer,
      writer,
      maxBatch: MAX_BATCH,
      gatherMs: BURST_GATHER_MS,
      flushMs: () => this.settings.get('artemis-studio.events.flush'),
      stored: (events) => {
        this.metrics.stored.inc(events.length);
        for (const { pending, seq, prevSeq } of events)
          this.bus.publishJson(
            channels.eventStored,
            subjects.eventStored(pending.event.clusterId),
            storedEventBody(pending, seq, prevSeq),
          );
      },
      poisoned: (pending, reason) => {
        this.metrics.poisoned.inc();
        this.logger.error(
          `PostgreSQL refused event ${pending.event.eventId} of cluster ${pending.event.clusterId}: ${reason}`,
        );
        void this.queries
          .recordDrops({
            reportId: randomUUID(),
            clusterId: pending.event.clusterId,
            source: 'event-store',
            count: 1,
            reason: `refused by PostgreSQL: ${reason}`.slice(0, 500),
            ts: new Date().toISOString(),
          })
          .catch((err) => this.logger.error(`could not count a dropped event: ${(err as Error).message}`));
      },
      onBatch: (size, waitedMs) => {
        this.metrics.batch.observe(size);
        this.metrics.wait.observe(waitedMs / 1000);
      },
    });
    const consumer = this.bus.consume(channels.eventRaw, EVENT_STORE_CONSUMER, (event, delivery) => {
      const outcome = this.buffer.offer(event, delivery);
      if (outcome === 'full') {
        this.metrics.deferred.inc();
        delivery.nak(1000);
      } else if (outcome === 'redelivered') {
        this.metrics.redelivered.inc();
      }
    });
    this.current = { writer, batchWriter, consumer };
    await Promise.race([batchWriter.run(), connectionLost]);
  }

  private async endTerm(writer: BrokerEventWriterRepository): Promise<void> {
    const current = this.current;
    this.current = undefined;
    current?.batchWriter.stop();
    await current?.consumer.stop();
    // Unacknowledged events stay in the stream for the next writer; nothing here is lost. Handing
    // them back now spares the next writer the 60 s acknowledgement window.
    for (const pending of this.buffer.peek(this.buffer.size)) pending.delivery.nak();
    this.buffer.clear();
    await writer.release();
    this.metrics.leader.set(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.current?.batchWriter.stop();
    // Bounded: what is not committed stays in the stream for the next writer, so nothing is lost
    // by giving up, while a shutdown that never ends holds the pod (and a test) forever.
    const ended = await withTimeout(
      (this.running ?? Promise.resolve()).then(() => true),
      SHUTDOWN_WAIT_MS,
      () => false,
    );
    if (!ended) this.logger.warn(`writer did not stop within ${SHUTDOWN_WAIT_MS} ms; leaving it`);
  }
}
