import { buckets } from '@artemis-studio/contracts';
import { createDataSource, NodeStateEntity } from '@artemis-studio/db';
import { SettingsRepository } from '@artemis-studio/platform';
import {
  brokerCluster,
  createTestDatabase,
  insertCluster,
  spawnService,
  waitFor,
  type ServiceProcess,
} from '@artemis-studio/testing';

import type { DataSource } from 'typeorm';
import { ScraperStack, TICK_MS } from './scraper-stack.fixture';

describe('two scrapers sharing the clusters, against a real broker, PostgreSQL and NATS', () => {
  const stack = new ScraperStack();
  // A database of its own: the run's shared one holds every earlier suite's clusters, and two
  // replicas polling hundreds of them a second on two cores let their heartbeats lapse (CI failed
  // here twice in five runs; reproduced locally with 150 clusters registered beside).
  let own: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    await stack.start();
    own = await createTestDatabase({ migrated: true });
    db = await createDataSource({ url: own.url, poolSize: 2 }).initialize();
    const settings = new SettingsRepository(db);
    await settings.put('artemis-studio.scrape.tier-a-millis', TICK_MS);
    await settings.put('artemis-studio.scrape.tier-b-millis', TICK_MS);
    // As the harness does for the shared database: no notification ring left on the test broker.
    await settings.put('artemis-studio.notifications.ring-size', 0);
  });
  const replicas: ServiceProcess[] = [];
  // The replicas stop before the broker they poll and the database they write go away (Jest runs
  // afterAll hooks in the order declared, so two hooks stopped them last).
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await stack.stop();
    await db?.destroy();
    await own?.drop();
  });

  it('poll each cluster from one replica, and a killed owner is replaced within 3 lease TTLs', async () => {
    const ttl = 2000;
    const clusters = [
      await insertCluster(db, brokerCluster(stack.broker)),
      await insertCluster(db, brokerCluster(stack.broker)),
    ];
    replicas.push(await spawnService('scraper', 18181, { LEASE_TTL_MS: String(ttl), DATABASE_URL: own.url }));
    replicas.push(await spawnService('scraper', 18182, { LEASE_TTL_MS: String(ttl), DATABASE_URL: own.url }));
    const leases = await stack.bus.kv(buckets.leases);
    const ownerOf = async (clusterId: string) => (await leases.get(`scraper.${clusterId}`))?.value.owner;

    const owners = await waitFor('both clusters owned', async () => {
      const o = await Promise.all(clusters.map((c) => ownerOf(c.id)));
      return o.every(Boolean) && o;
    });
    for (const owner of owners) expect(replicas.some((r) => owner!.includes(`-${r.pid}-`))).toBe(true);
    // Each says on /metrics what it owns: both count each other, and the fleet is split between them.
    const gauge = async (replica: ServiceProcess, name: string) =>
      Number(
        new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(
          await (await fetch(`${replica.url}/metrics`)).text(),
        )?.[1],
      );
    await waitFor('both replicas owning a share, and counting each other', async () => {
      const owned = await Promise.all(replicas.map((r) => gauge(r, 'studio_owned_clusters')));
      const live = await Promise.all(replicas.map((r) => gauge(r, 'studio_live_replicas')));
      return owned.every((n) => n > 0) && live.every((n) => n >= 2);
    });

    const victim = replicas.find((r) => owners[0]!.includes(`-${r.pid}-`))!;
    const survivor = replicas.find((r) => r !== victim)!;
    const killedAt = Date.now();
    await victim.kill();
    await waitFor(
      'the survivor to own both clusters',
      async () => {
        const o = await Promise.all(clusters.map((c) => ownerOf(c.id)));
        return o.every((owner) => owner?.includes(`-${survivor.pid}-`));
      },
      { timeoutMs: 4 * ttl },
    );
    expect(Date.now() - killedAt).toBeLessThan(3 * ttl);

    // And it really polls them: their node state moves on. A node that failed to answer (a
    // broker slow under load) is retried on a jittered backoff and not rewritten meanwhile: the
    // wait covers the fifth retry (16 ticks), and a failure says what the states were.
    const since = new Date();
    let seen = 'nothing read';
    try {
      await waitFor(
        'fresh node state for both clusters',
        async () => {
          const states = await db
            .getRepository(NodeStateEntity)
            .findBy(clusters.map((c) => ({ nodeId: c.nodeIds[0] })));
          seen = states.map((s) => `${s.observedAt.toISOString()} ${s.reason ?? 'ok'}`).join('; ');
          return states.length === 2 && states.every((s) => s.observedAt > since);
        },
        { timeoutMs: 30_000 },
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}; since ${since.toISOString()}, the states: ${seen}`);
    }
  }, 90_000);
});
