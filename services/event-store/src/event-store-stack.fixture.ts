import { channels, rpcs, subjects, type RawBrokerEvent } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  startService,
  testDatabaseUrl,
  type RunningService,
  testBus,
  rawBrokerEvent,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { EventStoreModule } from './app.module';

export const rawEvent = (clusterId: string, n: number, receivedAt = new Date()): RawBrokerEvent =>
  rawBrokerEvent({
    clusterId,
    type: n % 2 ? 'CONSUMER_CREATED' : 'CONSUMER_CLOSED',
    brokerTs: receivedAt.toISOString(),
    receivedAt: receivedAt.toISOString(),
    address: `q${n % 7}`,
    queue: `q${n % 7}`,
    consumer: String(n),
    props: { _AMQ_NotifType: 'CONSUMER_CREATED', _AMQ_Distance: 0, n },
  });

/**
 * What the event-store suites run against: real PostgreSQL and NATS, events published to the
 * stream and read back from broker_event; for the in-process suites, the event store running here.
 */
export class EventStoreStack {
  db!: DataSource;
  readonly bus = testBus('event-store-test');

  /** Publishes events to the stream, `inFlight` at a time; returns them in publish order. */
  readonly publish = async (clusterId: string, count: number, { inFlight = 500, perSecond = 0 } = {}) => {
    const events = Array.from({ length: count }, (_, n) => rawEvent(clusterId, n));
    const started = Date.now();
    for (let i = 0; i < events.length; i += inFlight) {
      await Promise.all(
        events
          .slice(i, i + inFlight)
          .map((e) =>
            this.bus.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), e, { msgId: e.eventId }),
          ),
      );
      if (perSecond) {
        const due = started + ((i + inFlight) / perSecond) * 1000;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      }
    }
    return events;
  };
  readonly stored = async (clusterId: string): Promise<{ seq: number; eventId: string }[]> =>
    (
      await this.db.query(`SELECT seq, event_id FROM broker_event WHERE cluster_id = $1 ORDER BY seq`, [
        clusterId,
      ])
    ).map((r: { seq: string; event_id: string }) => ({ seq: Number(r.seq), eventId: r.event_id }));
  readonly countOf = async (clusterId: string) =>
    Number(
      (await this.db.query(`SELECT count(*) FROM broker_event WHERE cluster_id = $1`, [clusterId]))[0].count,
    );
  store?: RunningService;

  async start(): Promise<void> {
    this.db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    await this.bus.ready();
  }

  /** The event store in this process. */
  async startInProcess(): Promise<void> {
    this.store = await startService(EventStoreModule);
    // Its responders are subscribed at bootstrap; NATS knows of them a moment later.
    await waitFor('the event store answering on the bus', () =>
      this.bus.request(rpcs.newestSeq, { clusterId: randomUUID() }).then(
        () => true,
        () => false,
      ),
    );
  }

  async stop(): Promise<void> {
    await this.store?.close();
    await this.bus.close();
    await this.db.destroy();
  }
}
