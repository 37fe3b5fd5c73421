import { InMemoryKv } from '@artemis-studio/bus';
import type { Lease } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import { ClusterLeases } from './cluster-leases';
import { OwnedClusters, replicaId } from './owned-clusters';

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
      expect(await leases('replica-b').reconcile(['c1'])).toEqual(new Set());
      expect(owner.all().map((w) => w.target.id)).toEqual(['c1']);
      expect(stopped).toEqual([]);
    } finally {
      await owner.stop();
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
      await new ClusterLeases(kv, 'notifier', replicaId(env), 15_000, () => now).reconcile(['c1']),
    ).toEqual(new Set(['c1']));
    // Crashed and restarted a moment later, well inside the TTL: the same owner, so it renews.
    const restarted = new ClusterLeases(kv, 'notifier', replicaId(env), 15_000, () => now + 2000);
    expect(await restarted.reconcile(['c1'])).toEqual(new Set(['c1']));
  });

  it('is new for every process without it, which then waits for the old leases to lapse', async () => {
    expect(replicaId({})).not.toBe(replicaId({}));
    const kv = new InMemoryKv<Lease>();
    const now = 1_000_000;
    await new ClusterLeases(kv, 'notifier', replicaId({}), 15_000, () => now).reconcile(['c1']);
    const restarted = new ClusterLeases(kv, 'notifier', replicaId({}), 15_000, () => now + 2000);
    expect(await restarted.reconcile(['c1'])).toEqual(new Set());
  });
});
