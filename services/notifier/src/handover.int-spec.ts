import type { Stoppable } from '@artemis-studio/bus';
import { buckets, UNOBSERVED_EVENT_TYPE } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  brokerCluster,
  type BrokerProfile,
  brokerProfile,
  churnConsumers,
  cleanStream,
  consumerEventsOf,
  followRawEvents,
  declareLive,
  insertCluster,
  openAmqpClient,
  replicaPair,
  type RunningService,
  startService,
  testBus,
  testConfig,
  testDatabaseUrl,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { NotifierModule } from './app.module';

const NOTIFIER_ENV = { LEASE_TTL_MS: '3000', NOTIFIER_HANDOVER_SECONDS: '10' };

/**
 * A rolling update of the notifier (issue 30, item 3): a new replica runs, the old one is stopped
 * gracefully while the broker keeps notifying. The old one gives its lease back but keeps its
 * subscription until the new one is subscribed; the overlap's notifications reach the stream from
 * both, with the same ids, and are kept once. Before, the cluster went unobserved from the old
 * replica's stop to the new one's subscription, and what the broker sent then was lost.
 */
describe('handover: a notifier stopped while another runs', () => {
  let broker: BrokerProfile;
  let db: DataSource;
  const notifiers: RunningService[] = [];
  const bus = testBus('handover-test');
  const consumers: Stoppable[] = [];
  const durables: string[] = [];
  const clusterIds: string[] = [];

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    await bus.ready();
  });

  afterAll(async () => {
    for (const n of notifiers) await n.close().catch(() => undefined);
    for (const c of consumers) await c.stop();
    await cleanStream({ clusterIds, durables });
    await bus.close();
    await db.destroy();
  });

  it('loses nothing and stores nothing twice across the handover', async () => {
    const cluster = await insertCluster(db, brokerCluster(broker));
    clusterIds.push(cluster.id);
    const { events, durable, consumer } = followRawEvents(bus, cluster.id, 'handover');
    durables.push(durable);
    consumers.push(consumer);
    // Named so that the cluster stays with the first until it stops: its shutdown is the handover
    // here (a successor ranking first would take it as it joins: rebalance.int-spec).
    const { preferred: first, other: next } = replicaPair(cluster.id, `handover-${randomUUID().slice(0, 8)}`);
    const old = await startService(NotifierModule, { ...NOTIFIER_ENV, STUDIO_REPLICA_ID: first });
    notifiers.push(old);
    await declareLive(bus, cluster.id, broker);
    const observations = await bus.kv(buckets.observations);
    const observer = async () => {
      const mark = (await observations.get(cluster.id))?.value;
      return mark?.observing && !mark.handingOver ? mark.owner : undefined;
    };
    const oldOwner = await waitFor('the first notifier observing', observer);
    const successor = await startService(NotifierModule, { ...NOTIFIER_ENV, STUDIO_REPLICA_ID: next });
    notifiers.push(successor);

    // The broker notifies all along: a receiver attached and closed every few milliseconds.
    const queue = `handover.${randomUUID()}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    const churn = churnConsumers(client, queue);
    try {
      await waitFor('some notifications through the first notifier', () =>
        events.some((e) => e.queue === queue),
      );
      await old.close();
      const newOwner = await waitFor('the successor observing', observer);
      expect(newOwner).not.toBe(oldOwner);
      // Long enough after the old one closed for its last notifications to have been published.
      await churn.goOn(200);
    } finally {
      await churn.stop();
      await client.close();
    }

    const ofQueue = await consumerEventsOf(events, queue, churn.caused());
    expect(ofQueue).toHaveLength(churn.caused());
    expect(new Set(ofQueue.map((e) => e.eventId)).size).toBe(churn.caused());
    expect(events.filter((e) => e.type === UNOBSERVED_EVENT_TYPE)).toEqual([]);
  });
});
