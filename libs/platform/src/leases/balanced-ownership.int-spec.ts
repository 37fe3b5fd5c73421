import type { TypedKv } from '@artemis-studio/bus';
import { buckets, type Lease } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import { testBus, waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { ClusterWork } from './cluster-work';
import type { OwnedClusters } from './owned-clusters';
import { ownedClustersOn } from './owned-clusters-on';
import { clusterWeight, preferredOwners } from './preferred-owners';

/**
 * Three replicas of one service over the real NATS buckets: they split the fleet by weight, a
 * replica leaving hands its clusters over at once, one joining takes only its share, one crashing
 * has its clusters taken within a TTL and a third; no cluster is ever run by two at once, and no
 * unexpired lease ever changes hands.
 */
describe('clusters spread over the replicas of a service (issue 32, ADR-0016)', () => {
  const TTL = 3000;
  const service = 'scraper';
  /** An installation of its own: the other suites' scrapers on this NATS are not its members. */
  const installation = randomUUID();
  const bus = testBus('balanced-ownership');
  const log = { log: () => undefined, warn: () => undefined };
  const targets = Array.from(
    { length: 30 },
    (_, i) =>
      ({
        id: randomUUID(),
        name: `cluster-${i}`,
        revision: '1',
        nodes: [{}, {}],
        queueCount: [20, 300, 1500, 5000][i % 4],
      }) as unknown as ClusterTarget,
  );
  const clusterIds = new Set(targets.map((t) => t.id));
  const weightOf = (t: ClusterTarget) => clusterWeight(t.nodes.length, t.queueCount ?? 0);

  /** Who runs each cluster now, and what went wrong at any moment. */
  const running = new Map<string, Set<string>>(targets.map((t) => [t.id, new Set()]));
  const unownedSince = new Map<string, number>(targets.map((t) => [t.id, Date.now()]));
  const unownedFor: { cluster: string; ms: number }[] = [];
  const ownedTwice: string[] = [];
  const handedOverUnexpired: string[] = [];
  /** The clusters started since a rebalance began, by name. */
  const startedNow: string[] = [];
  const replicas = new Map<string, { owned: OwnedClusters<ClusterWork>; crash(): void }>();

  const ownerOf = (id: string) => [...running.get(id)!][0];
  const weights = () => {
    const load = new Map<string, number>();
    for (const t of targets) load.set(ownerOf(t.id), (load.get(ownerOf(t.id)) ?? 0) + weightOf(t));
    return load;
  };
  const allOwnedBy = (names: string[]) =>
    targets.every((t) => running.get(t.id)!.size === 1 && names.includes(ownerOf(t.id)));

  function started(replica: string, target: ClusterTarget): ClusterWork {
    const set = running.get(target.id)!;
    set.add(replica);
    startedNow.push(target.name);
    if (set.size > 1) ownedTwice.push(`${target.name}: ${[...set].join(', ')}`);
    const since = unownedSince.get(target.id);
    if (since !== undefined) unownedFor.push({ cluster: target.name, ms: Date.now() - since });
    unownedSince.delete(target.id);
    return {
      target,
      stop: () => {
        set.delete(replica);
        if (set.size === 0) unownedSince.set(target.id, Date.now());
      },
    };
  }

  async function join(name: string): Promise<void> {
    let dead = false;
    // A crash: every call to NATS fails from now on, and what ran in the process is gone.
    const mortal = <V>(kv: TypedKv<V>): TypedKv<V> =>
      new Proxy(kv, {
        get(target, property) {
          const value = Reflect.get(target, property) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (dead) throw new Error('crashed');
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    const owned = ownedClustersOn(
      mortal(await bus.kv(buckets.leases)),
      mortal(await bus.kv(buckets.members)),
      {
        service,
        installation,
        owner: name,
        leaseTtlMs: TTL,
        clusters: async () => targets,
        start: (t) => started(name, t),
        log,
      },
    );
    replicas.set(name, {
      owned,
      crash: () => {
        dead = true;
        for (const work of owned.all()) work.stop();
      },
    });
    await owned.run();
  }

  let leaseWatch: { stop(): Promise<void> | void } | undefined;
  beforeAll(async () => {
    await bus.ready();
    const last = new Map<string, Lease>();
    leaseWatch = (await bus.kv(buckets.leases)).watch((key, lease) => {
      if (!clusterIds.has(key.slice(`${service}.`.length))) return;
      const before = last.get(key);
      if (lease && before && before.owner !== lease.owner && Date.parse(before.expiresAt) > Date.now())
        handedOverUnexpired.push(`${key}: ${before.owner} → ${lease.owner}`);
      if (lease) last.set(key, lease);
      else last.delete(key);
    });
  });

  afterAll(async () => {
    for (const { owned } of replicas.values()) await owned.stop().catch(() => undefined);
    await leaseWatch?.stop();
    await bus.close();
  });

  const preferred = (members: string[]) =>
    preferredOwners(
      targets.map((t) => ({ id: t.id, weight: weightOf(t) })),
      members,
    );

  /** Waits until every cluster runs on its preferred owner among `members`, as every replica computes it. */
  async function settlesAsPreferred(members: string[]): Promise<void> {
    const owners = preferred(members);
    const astray = () =>
      targets.filter((t) => running.get(t.id)!.size !== 1 || ownerOf(t.id) !== owners.get(t.id));
    await waitFor(`every cluster on its preferred owner among ${members.join(', ')}`, () =>
      astray().length === 0 ? true : undefined,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${astray().length} astray`);
    });
  }

  /**
   * Watches the clusters started from now on, for a change of members from `from` to `to`: only
   * those whose preferred owner changed may start anywhere (a rebalance moves nothing else).
   */
  function rebalance(from: string[], to: string[]) {
    const before = preferred(from);
    const after = preferred(to);
    const changed = new Set(targets.filter((t) => before.get(t.id) !== after.get(t.id)).map((t) => t.name));
    startedNow.length = 0;
    return {
      expectOnlyChangedMoved: () => {
        expect(changed.size).toBeGreaterThan(0);
        expect(startedNow.filter((name) => !changed.has(name))).toEqual([]);
      },
    };
  }

  it('splits, rebalances, hands over and takes over without a cluster run twice', async () => {
    await join('replica-a');
    await join('replica-b');
    await join('replica-c');
    // Balanced by weight once the moves are done: each within 15% of a third (30 clusters of four
    // sizes from 22 to 5,002), and a failure says what the loads were.
    const total = targets.reduce((sum, t) => sum + weightOf(t), 0);
    const balanced = () =>
      allOwnedBy(['replica-a', 'replica-b', 'replica-c']) &&
      weights().size === 3 &&
      [...weights().values()].every((w) => Math.abs(w / (total / 3) - 1) < 0.15);
    await waitFor('30 clusters spread evenly over three replicas', balanced).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify([...weights()])} of ${total}`);
    });
    expect(replicas.get('replica-a')!.owned.ownership().members).toBe(3);

    await settlesAsPreferred(['replica-a', 'replica-b', 'replica-c']);

    // Graceful leave: its clusters are taken at once, nowhere near a TTL, and only the clusters
    // whose preferred owner changed move.
    const leftAt = Date.now();
    unownedFor.length = 0;
    const leaving = rebalance(['replica-a', 'replica-b', 'replica-c'], ['replica-a', 'replica-b']);
    await replicas.get('replica-c')!.owned.stop();
    await waitFor('replica-c’s clusters taken over', () => allOwnedBy(['replica-a', 'replica-b']));
    expect(Date.now() - leftAt).toBeLessThan(TTL);
    expect(Math.max(...unownedFor.map((u) => u.ms))).toBeLessThan(TTL / 2);
    await settlesAsPreferred(['replica-a', 'replica-b']);
    leaving.expectOnlyChangedMoved();

    // A new replica joins: it takes its share, and nothing moves that the preferred owners keep.
    // How much that is, for fleets like this one, is preferred-owners.spec's to bound: with ids
    // drawn at random here, a third of the weight was 17 light clusters of 30 in one CI run, and
    // more than half the weight moved in another.
    const joining = rebalance(['replica-a', 'replica-b'], ['replica-a', 'replica-b', 'replica-d']);
    await join('replica-d');
    await settlesAsPreferred(['replica-a', 'replica-b', 'replica-d']);
    joining.expectOnlyChangedMoved();
    expect(weights().get('replica-d')).toBeGreaterThan(total / 4);

    // A crash: its clusters are taken once its leases lapse, within a TTL and a renewal.
    unownedFor.length = 0;
    replicas.get('replica-b')!.crash();
    const crashedAt = Date.now();
    await waitFor('replica-b’s clusters taken over', () => allOwnedBy(['replica-a', 'replica-d']), {
      timeoutMs: 3 * TTL,
    });
    expect(Date.now() - crashedAt).toBeLessThan(TTL + TTL / 3 + 1500);
    expect(Math.max(...unownedFor.map((u) => u.ms))).toBeLessThan(TTL + TTL / 3 + 1500);

    expect(ownedTwice).toEqual([]);
    expect(handedOverUnexpired).toEqual([]);
  }, 60_000);
});
