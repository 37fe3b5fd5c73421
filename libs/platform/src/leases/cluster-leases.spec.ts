import { InMemoryKv } from '@artemis-studio/bus';
import type { Lease } from '@artemis-studio/contracts';
import { ClusterLeases } from './cluster-leases';

describe('ClusterLeases', () => {
  let now = 1_000_000;
  const clock = () => now;
  const kv = new InMemoryKv<Lease>();
  const a = new ClusterLeases(kv, 'scraper', 'replica-a', 3000, clock);
  const b = new ClusterLeases(kv, 'scraper', 'replica-b', 3000, clock);

  it('gives each cluster to exactly one replica', async () => {
    expect(await a.reconcile(['c1', 'c2'])).toEqual(new Set(['c1', 'c2']));
    expect(await b.reconcile(['c1', 'c2'])).toEqual(new Set());
  });

  it('keeps a lease its owner renews, past the original expiry', async () => {
    now += 2000;
    expect(await a.reconcile(['c1', 'c2'])).toEqual(new Set(['c1', 'c2']));
    now += 2000;
    expect(await b.reconcile(['c1', 'c2'])).toEqual(new Set());
  });

  it('lets another replica take over once the owner stops renewing', async () => {
    now += 3001;
    expect(await b.reconcile(['c1', 'c2'])).toEqual(new Set(['c1', 'c2']));
    // The old owner learns it lost them on its next reconcile.
    expect(await a.reconcile(['c1', 'c2'])).toEqual(new Set());
  });

  it('releases leases of deleted clusters and on shutdown, without touching others', async () => {
    expect(await b.reconcile(['c1'])).toEqual(new Set(['c1']));
    expect(await kv.get('scraper.c2')).toBeNull();
    await a.releaseAll();
    expect((await kv.get('scraper.c1'))?.value.owner).toBe('replica-b');
    await b.releaseAll();
    expect(await kv.keys()).toEqual([]);
  });

  it('never lets two racing replicas both win a free lease', async () => {
    const race = await Promise.all([a.reconcile(['c9']), b.reconcile(['c9'])]);
    expect(race.filter((owned) => owned.has('c9'))).toHaveLength(1);
  });
});
