import type { Bus, Stoppable } from '@artemis-studio/bus';
import { EVENTS_STREAM, channels, subjects, type RawBrokerEvent } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { testConfig } from './config';

/**
 * Removes test clusters' events from STUDIO_EVENTS and deletes test consumers. Under interest
 * retention the event store's durable consumer holds every event until an event store takes it:
 * a test that publishes without running one cleans up after itself.
 */
export async function cleanStream({
  clusterIds = [],
  durables = [],
}: {
  clusterIds?: string[];
  durables?: string[];
}): Promise<void> {
  const nc = await connect({ servers: testConfig.natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    for (const durable of durables) await jsm.consumers.delete(EVENTS_STREAM, durable).catch(() => undefined);
    for (const clusterId of clusterIds) {
      await jsm.streams.purge(EVENTS_STREAM, { filter: subjects.eventRaw(clusterId) }).catch(() => undefined);
    }
  } finally {
    await nc.close();
  }
}

/**
 * Every raw event of a cluster the stream holds, as they arrive, read by a durable consumer of the
 * test's own: stop it, and give `durable` to cleanStream.
 */
export function followRawEvents(
  bus: Bus,
  clusterId: string,
  prefix: string,
): { events: RawBrokerEvent[]; durable: string; consumer: Stoppable } {
  const events: RawBrokerEvent[] = [];
  const durable = `${prefix}-${randomUUID().slice(0, 8)}`;
  const consumer = bus.consume(
    channels.eventRaw,
    { durable, filterSubject: subjects.eventRaw(clusterId) },
    (event, delivery) => {
      events.push(event);
      delivery.ack();
    },
  );
  return { events, durable, consumer };
}
