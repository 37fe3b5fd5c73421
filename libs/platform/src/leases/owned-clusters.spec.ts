import { InMemoryKv } from '@artemis-studio/bus';
import type { Lease } from '@artemis-studio/contracts';
import { ClusterLeases } from './cluster-leases';
import { OwnedClusters } from './owned-clusters';
import { replicaId } from './owned-clusters-on';
import { target } from './owned-clusters.fixture';

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
