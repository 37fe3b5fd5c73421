import { InMemoryKv } from '@artemis-studio/bus';
import type { Lease, Member } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import { ClusterLeases } from './cluster-leases';
import { OwnedClusters, replicaId, type ClusterWork } from './owned-clusters';
import { preferredOwners } from './preferred-owners';
import { ReplicaMembership } from './replica-membership';

const target = { id: 'c1', name: 'prod', revision: '1' } as ClusterTarget;

describe('OwnedClusters', () => {
  it('keeps its leases, and its work, while the registered clusters cannot be read', async () => {
    let now = 1_000_000;
    const kv = new InMemoryKv<Lease>();
    const leases = (owner: string) => new ClusterLeases(kv, 'notifier', owner, 3000, () => now);
    let databaseAway = false;
    const stopped: string[] = [];
    const owner = new OwnedClusters({
      leases: leases('replica-a'),
      clusters: async () => {
        if (databaseAway) throw new Error('Connection terminated unexpectedly');
        return [target];
      },
      start: (t) => ({ target: t, stop: () => void stopped.push(t.id) }),
      log: { log: () => undefined, warn: () => undefined },
    });
    try {
      await owner.run();
      expect(owner.all().map((w) => w.target.id)).toEqual(['c1']);

      databaseAway = true;
      for (let i = 0; i < 5; i++) {
        now += 1000;
        await owner.run();
      }
      // Five seconds without the database, past the 3 s lease: still this replica's, nobody else's.
      expect((await leases('replica-b').reconcile(['c1'])).owned).toEqual(new Set());
      expect(owner.all().map((w) => w.target.id)).toEqual(['c1']);
      expect(stopped).toEqual([]);
    } finally {
      await owner.stop();
    }
  });
});

describe('OwnedClusters handing over', () => {
  const log = { log: () => undefined, warn: () => undefined };

  it('gives the leases back first, keeps the work running until its handover is done, then stops it', async () => {
    const kv = new InMemoryKv<Lease>();
    const events: string[] = [];
    const owner = new OwnedClusters({
      leases: new ClusterLeases(kv, 'notifier', 'replica-a', 60_000),
      clusters: async () => [target],
      start: (t) => ({ target: t, stop: () => void events.push('stopped') }),
      log,
    });
    await owner.run();
    await owner.handOver(async () => {
      // The successor can take the lease while the work still runs.
      events.push(`lease ${(await kv.get('notifier.c1')) === null ? 'free' : 'held'}`);
    });
    expect(events).toEqual(['lease free', 'stopped']);
  });

  it('with NATS away, hands nothing over and stops the work at once', async () => {
    const kv = new InMemoryKv<Lease>();
    const events: string[] = [];
    let natsAway = false;
    const owner = new OwnedClusters({
      leases: new ClusterLeases(kv, 'notifier', 'replica-a', 60_000),
      clusters: async () => [target],
      start: (t) => ({ target: t, stop: () => void events.push('stopped') }),
      reachable: () => !natsAway,
      log: { log: () => undefined, warn: (m) => void events.push(m) },
    });
    await owner.run();
    natsAway = true;
    await owner.handOver(
      async () => void events.push('handed over'),
      async () => void events.push('readied'),
    );
    expect(events).toEqual(['NATS is away: the leases are left to lapse within their TTL', 'stopped']);
    // Left to lapse: the lease is still written as this replica's.
    expect((await kv.get('notifier.c1'))?.value.owner).toBe('replica-a');
  });

  it('takes a lease handed back at once when nudged, not at its next renewal', async () => {
    const kv = new InMemoryKv<Lease>();
    const leaving = new ClusterLeases(kv, 'notifier', 'replica-a', 60_000);
    await leaving.reconcile(['c1']);
    const successor = new OwnedClusters({
      leases: new ClusterLeases(kv, 'notifier', 'replica-b', 60_000),
      clusters: async () => [target],
      start: (t) => ({ target: t, stop: () => undefined }),
      log,
    });
    try {
      await successor.run();
      expect(successor.all()).toEqual([]);
      await leaving.releaseAll();
      successor.nudge();
      for (let i = 0; i < 50 && successor.all().length === 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      // Renewals are 20 s apart here: only the nudge can have taken it.
      expect(successor.all().map((w) => w.target.id)).toEqual(['c1']);
    } finally {
      await successor.stop();
    }
  });
});

describe('OwnedClusters after an owner crashed', () => {
  it("comes back just after the crashed owner's lease runs out, not at its next renewal", async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const kv = new InMemoryKv<Lease>();
    // Taken by replica a, which then stops renewing it: it runs out at 1,003,000.
    await new ClusterLeases(kv, 'notifier', 'replica-a', 3000).reconcile(['c1']);
    jest.setSystemTime(1_002_500);
    const survivor = new OwnedClusters({
      leases: new ClusterLeases(kv, 'notifier', 'replica-b', 3000),
      clusters: async () => [target],
      start: (t) => ({ target: t, stop: () => undefined }),
      log: { log: () => undefined, warn: () => undefined },
    });
    try {
      await survivor.run();
      expect(survivor.all()).toEqual([]);
      await jest.advanceTimersToNextTimerAsync();
      // 100 ms past the expiry, not a third of the TTL (1 s) after the last pass.
      expect(Date.now()).toBe(1_003_100);
      expect(survivor.all().map((w) => w.target.id)).toEqual(['c1']);
    } finally {
      await survivor.stop();
      jest.useRealTimers();
    }
  });
});

describe('OwnedClusters passes', () => {
  it('keeps one next pass scheduled however many passes were run', async () => {
    jest.useFakeTimers();
    const owner = new OwnedClusters({
      leases: new ClusterLeases(new InMemoryKv<Lease>(), 'notifier', 'replica-a', 60_000),
      clusters: async () => [target],
      start: (t) => ({ target: t, stop: () => undefined }),
      log: { log: () => undefined, warn: () => undefined },
    });
    try {
      await owner.run();
      await owner.run();
      expect(jest.getTimerCount()).toBe(1);
      await owner.stop();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('replicaId', () => {
  it('is STUDIO_REPLICA_ID when set, so a restarted process takes its leases back at once', async () => {
    const env = { STUDIO_REPLICA_ID: 'studio-notifier-7c9f-x2kq' };
    expect(replicaId(env)).toBe('studio-notifier-7c9f-x2kq');
    const kv = new InMemoryKv<Lease>();
    const now = 1_000_000;
    expect(
      (await new ClusterLeases(kv, 'notifier', replicaId(env), 15_000, () => now).reconcile(['c1'])).owned,
    ).toEqual(new Set(['c1']));
    // Crashed and restarted a moment later, well inside the TTL: the same owner, so it renews.
    const restarted = new ClusterLeases(kv, 'notifier', replicaId(env), 15_000, () => now + 2000);
    expect((await restarted.reconcile(['c1'])).owned).toEqual(new Set(['c1']));
  });

  it('is new for every process without it, which then waits for the old leases to lapse', async () => {
    expect(replicaId({})).not.toBe(replicaId({}));
    const kv = new InMemoryKv<Lease>();
    const now = 1_000_000;
    await new ClusterLeases(kv, 'notifier', replicaId({}), 15_000, () => now).reconcile(['c1']);
    const restarted = new ClusterLeases(kv, 'notifier', replicaId({}), 15_000, () => now + 2000);
    expect((await restarted.reconcile(['c1'])).owned).toEqual(new Set());
  });
});

describe('OwnedClusters balancing between replicas', () => {
  const log = { log: () => undefined, warn: () => undefined };
  const targets = Array.from(
    { length: 12 },
    (_, i) =>
      ({
        id: `c${i}`,
        name: `c${i}`,
        revision: '1',
        nodes: [{}],
        queueCount: 100,
      }) as unknown as ClusterTarget,
  );
  const settle = async () => {
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('gives each replica its share, moves only the joining one’s share to it, and hands over before it stops', async () => {
    const leases = new InMemoryKv<Lease>();
    const members = new InMemoryKv<Member>();
    const events: string[] = [];
    const replica = (name: string) =>
      new OwnedClusters({
        leases: new ClusterLeases(leases, 'notifier', name, 60_000),
        membership: new ReplicaMembership(members, 'notifier', 'installation-1', name, 60_000),
        clusters: async () => targets,
        start: (t) => ({ target: t, stop: () => void events.push(`${name} stopped ${t.id}`) }),
        handOver: {
          before: async (w) => void events.push(`${name} readies ${w.target.id}`),
          after: async (w) => {
            const lease = await leases.get(`notifier.${w.target.id}`);
            events.push(`${name} waits for ${w.target.id}: lease ${lease ? 'held' : 'free'}`);
          },
        },
        log,
      });
    const a = replica('replica-a');
    const b = replica('replica-b');
    const ids = (r: OwnedClusters<ClusterWork>) => r.all().map((w) => w.target.id);
    try {
      await a.run();
      expect(a.ownership()).toEqual({ clusters: 12, weight: 12 * 101, members: 1 });

      await b.run(); // joins: its share is still a's
      expect(ids(b)).toEqual([]);
      await a.run(); // sees b, hands b's share over
      await settle();
      await b.run();
      const ofA = ids(a);
      const ofB = ids(b);
      expect([...ofA, ...ofB].sort()).toEqual(targets.map((t) => t.id).sort());
      expect(ofA.filter((id) => ofB.includes(id))).toEqual([]);
      expect(Math.abs(ofA.length - ofB.length)).toBeLessThanOrEqual(2);
      // Each handed-over cluster: readied, lease given back, waited for, then stopped; none of b's stopped.
      const first = ofB[0];
      expect(events.filter((e) => new RegExp(`\\b${first}\\b`).test(e))).toEqual([
        `replica-a readies ${first}`,
        `replica-a waits for ${first}: lease free`,
        `replica-a stopped ${first}`,
      ]);
      expect(events.filter((e) => e.startsWith('replica-b'))).toEqual([]);

      // b leaves: a takes everything back at its next renewal.
      await b.stop();
      await a.run();
      expect(ids(a).sort()).toEqual(targets.map((t) => t.id).sort());
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('OwnedClusters handing a cluster over when the handover fails', () => {
  it('stops the work all the same, and gives the lease back at the next renewal', async () => {
    const leases = new InMemoryKv<Lease>();
    const members = new InMemoryKv<Member>();
    const stopped: string[] = [];
    const target = {
      id: 'c1',
      name: 'prod',
      revision: '1',
      nodes: [{}],
      queueCount: 10,
    } as unknown as ClusterTarget;
    const replica = (name: string, failing: boolean) =>
      new OwnedClusters({
        leases: new ClusterLeases(leases, 'notifier', name, 60_000),
        membership: new ReplicaMembership(members, 'notifier', 'installation-1', name, 60_000),
        clusters: async () => [target],
        start: (t) => ({ target: t, stop: () => void stopped.push(name) }),
        handOver: {
          before: async () => {
            if (failing) throw new Error('NATS is not connected');
          },
          after: async () => undefined,
        },
        log: { log: () => undefined, warn: () => undefined },
      });
    // The replica ranking first for c1 joins; the other holds it first, and its handover fails.
    const joiner = preferredOwners([{ id: 'c1', weight: 1 }], ['replica-a', 'replica-b']).get('c1')!;
    const holder = joiner === 'replica-a' ? 'replica-b' : 'replica-a';
    const a = replica(holder, true);
    const b = replica(joiner, false);
    try {
      await a.run();
      await b.run();
      await a.run(); // c1 is surplus: its handover fails
      for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toEqual([holder]);
      expect(a.all()).toEqual([]);
      await a.run(); // the lease goes back now
      await b.run();
      expect(b.all().map((w) => w.target.id)).toEqual(['c1']);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
