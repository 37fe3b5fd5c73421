import { createDataSource } from '@artemis-studio/db';
import {
  brokerCluster,
  brokerProfile,
  churnConsumers,
  createTestDatabase,
  insertCluster,
  openAmqpClient,
  spawnService,
  startPrivateNats,
  testConfig,
  waitFor,
  type ServiceProcess,
  type TestDatabase,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';

/** An installation's id, as its database keeps it. */
async function installationOf(database: TestDatabase): Promise<string> {
  const db = await createDataSource({ url: database.url, poolSize: 1 }).initialize();
  try {
    return ((await db.query('SELECT id FROM studio_installation')) as { id: string }[])[0]!.id;
  } finally {
    await db.destroy();
  }
}

/** Consumer notifications of `queue` the installation's event store has stored. */
async function storedOf(database: TestDatabase, queue: string): Promise<number> {
  const db = await createDataSource({ url: database.url, poolSize: 1 }).initialize();
  try {
    const [row] = (await db.query(
      `SELECT count(*)::int AS n FROM broker_event WHERE queue = $1 AND type LIKE 'CONSUMER_%'`,
      [queue],
    )) as { n: number }[];
    return row!.n;
  } finally {
    await db.destroy();
  }
}

describe('two installations of Studio beside one NATS (ADR-0031)', () => {
  const processes: ServiceProcess[] = [];
  const databases: TestDatabase[] = [];
  const stops: (() => Promise<void>)[] = [];

  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.stop()));
    for (const stop of stops.splice(0)) await stop();
    await Promise.all(databases.splice(0).map((d) => d.drop()));
  });

  const database = async () => {
    const created = await createTestDatabase({ migrated: true });
    databases.push(created);
    return created;
  };

  it('refuses to start the second on the same account, naming both, and leaves the first as it was', async () => {
    const nats = await startPrivateNats();
    stops.push(() => nats.stop());
    const [a, b] = [await database(), await database()];
    const first = await spawnService('event-store', 18451, { NATS_URL: nats.url, DATABASE_URL: a.url });
    processes.push(first);
    const refused = await spawnService(
      'event-store',
      18452,
      { NATS_URL: nats.url, DATABASE_URL: b.url },
      [],
      { readyTimeoutMs: 60_000 },
    ).then(
      (second) => {
        processes.push(second);
        return null;
      },
      (err: Error) => err.message,
    );
    expect(refused).toContain('refusing to start: this NATS account is used by another installation');
    expect(refused).toContain(`installation ${await installationOf(a)} (database 127.0.0.1`);
    expect(refused).toContain(`This is installation ${await installationOf(b)}`);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
  }, 90_000);

  it('stores every notification of a burst in each, once, when each has an account of its own', async () => {
    const nats = await startPrivateNats({
      config: `accounts {
        A: { jetstream: enabled, users: [{ user: studio-a, password: a-secret }] }
        B: { jetstream: enabled, users: [{ user: studio-b, password: b-secret }] }
      }`,
    });
    stops.push(() => nats.stop());
    const broker = await brokerProfile(testConfig.brokerProfile);
    const installations = [
      { database: await database(), user: 'studio-a', password: 'a-secret', port: 18453 },
      { database: await database(), user: 'studio-b', password: 'b-secret', port: 18456 },
    ];
    for (const i of installations) {
      const db = await createDataSource({ url: i.database.url, poolSize: 1 }).initialize();
      await insertCluster(db, brokerCluster(broker));
      await db.destroy();
      const env = {
        NATS_URL: nats.url,
        NATS_USER: i.user,
        NATS_PASSWORD: i.password,
        DATABASE_URL: i.database.url,
      };
      processes.push(await spawnService('event-store', i.port, env));
      processes.push(await spawnService('notifier', i.port + 1, env));
      processes.push(await spawnService('scraper', i.port + 2, env));
    }
    const queue = `installations.${randomUUID()}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      // Each installation observing the broker: a consumer on a probe queue reaches both histories.
      const probe = `installations.probe.${randomUUID()}`;
      await waitFor(
        "both installations storing the broker's notifications",
        async () => {
          const receiver = await client.createReceiver({
            source: { address: probe, capabilities: ['queue'] },
          });
          await receiver.close();
          const stored = await Promise.all(installations.map((i) => storedOf(i.database, probe)));
          return stored.every((n) => n > 0);
        },
        { timeoutMs: 90_000, intervalMs: 2000 },
      );
      const churn = churnConsumers(client, queue);
      await churn.goOn(200);
      await churn.stop();
      const caused = churn.caused();
      for (const i of installations)
        await waitFor(
          `every notification stored by ${i.user}`,
          async () => (await storedOf(i.database, queue)) >= caused,
          { timeoutMs: 30_000 },
        );
      for (const i of installations) expect(await storedOf(i.database, queue)).toBe(caused);
    } finally {
      await client.close();
    }
  }, 240_000);
});
