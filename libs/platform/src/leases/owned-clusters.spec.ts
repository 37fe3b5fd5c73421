import { InMemoryKv } from '@artemis-studio/bus';
import type { Lease } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import { ClusterLeases } from './cluster-leases';
import { OwnedClusters } from './owned-clusters';

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
