import { buckets } from '@artemis-studio/contracts';
import { NodeStateEntity } from '@artemis-studio/db';
import {
  brokerCluster,
  insertCluster,
  spawnService,
  waitFor,
  type ServiceProcess,
} from '@artemis-studio/testing';

import { ScraperStack } from './scraper-stack.fixture';

describe('two scrapers sharing the clusters, against a real broker, PostgreSQL and NATS', () => {
  const stack = new ScraperStack();

  beforeAll(async () => {
    await stack.start();
  });
  afterAll(() => stack.stop());

  const replicas: ServiceProcess[] = [];
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
  });

  it('poll each cluster from one replica, and a killed owner is replaced within 3 lease TTLs', async () => {
    const ttl = 2000;
    const clusters = [
      await insertCluster(stack.db, brokerCluster(stack.broker)),
      await insertCluster(stack.db, brokerCluster(stack.broker)),
    ];
    replicas.push(await spawnService('scraper', 18181, { LEASE_TTL_MS: String(ttl) }));
    replicas.push(await spawnService('scraper', 18182, { LEASE_TTL_MS: String(ttl) }));
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
          const states = await stack.db
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
