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
  createTestDatabase,
  declareLive,
  followRawEvents,
  insertCluster,
  openAmqpClient,
  replicaPair,
  type RunningService,
  startService,
  testBus,
  testConfig,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { NotifierModule } from './app.module';

/**
 * A rebalance (issue 30's row, issue 32 item 1, ADR-0016): a notifier replica joins and is the
 * cluster's preferred owner, so the running one hands the cluster over; then it leaves, and hands
 * it back. Without a ring (the live-node set names none), so the handovers overlap and the
 * duplicates are kept once. The suite has a database of its own: another suite's clusters would
 * move between the two replicas too.
 */
describe('rebalance: a notifier joining takes the cluster, leaving hands it back', () => {
  let broker: BrokerProfile;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  const notifiers: RunningService[] = [];
  const bus = testBus('rebalance-test');
  const consumers: Stoppable[] = [];
  const durables: string[] = [];
  const clusterIds: string[] = [];

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    database = await createTestDatabase({ migrated: true });
    db = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
    await bus.ready();
  });

  afterAll(async () => {
    for (const n of notifiers) await n.close().catch(() => undefined);
    for (const c of consumers) await c.stop();
    await cleanStream({ clusterIds, durables });
    await bus.close();
    await db.destroy();
    await database.drop();
  });

  it('loses nothing, stores nothing twice and states no period, either way', async () => {
    const cluster = await insertCluster(db, brokerCluster(broker));
    clusterIds.push(cluster.id);
    const { events, durable, consumer } = followRawEvents(bus, cluster.id, 'rebalance');
    durables.push(durable);
    consumers.push(consumer);
    const env = (replica: string) => ({
      DATABASE_URL: database.url,
      LEASE_TTL_MS: '3000',
      NOTIFIER_HANDOVER_SECONDS: '10',
      STUDIO_REPLICA_ID: replica,
    });
    // The joining replica's name ranks first for the cluster: it is the preferred owner once it runs.
    const { preferred: joining, other: first } = replicaPair(
      cluster.id,
      `rebalance-${randomUUID().slice(0, 8)}`,
    );
    notifiers.push(await startService(NotifierModule, env(first)));
    await declareLive(bus, cluster.id, broker);
    const observations = await bus.kv(buckets.observations);
    const observer = async () => {
      const mark = (await observations.get(cluster.id))?.value;
      return mark?.observing && !mark.handingOver ? mark.owner : undefined;
    };
    expect(await waitFor('the first notifier observing', observer)).toBe(first);

    const queue = `rebalance.${randomUUID()}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    const churn = churnConsumers(client, queue);
    let movedMs = 0;
    let backMs = 0;
    try {
      await waitFor('notifications through the first notifier', () => events.some((e) => e.queue === queue));
      const joinedAt = Date.now();
      const second = await startService(NotifierModule, env(joining));
      notifiers.push(second);
      await waitFor('the joining replica observing', async () => (await observer()) === joining);
      movedMs = Date.now() - joinedAt;
      await churn.goOn(200);

      const leftAt = Date.now();
      const leaving = second.close();
      await waitFor('the first notifier observing again', async () => (await observer()) === first);
      backMs = Date.now() - leftAt;
      await leaving;
      await churn.goOn(200);
    } finally {
      await churn.stop();
      await client.close();
    }
    // Both moves within a lease renewal or two, not a handover deadline (10 s) or a TTL wait.
    expect({ movedMs: movedMs < 5000, backMs: backMs < 5000 }).toEqual({ movedMs: true, backMs: true });

    const ofQueue = await consumerEventsOf(events, queue, churn.caused());
    expect(ofQueue).toHaveLength(churn.caused());
    expect(new Set(ofQueue.map((e) => e.eventId)).size).toBe(churn.caused());
    expect(events.filter((e) => e.type === UNOBSERVED_EVENT_TYPE)).toEqual([]);
  }, 90_000);
});
