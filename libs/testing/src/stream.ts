import { EVENTS_STREAM, subjects } from '@artemis-studio/contracts';
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
