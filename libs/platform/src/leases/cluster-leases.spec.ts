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
    expect((await a.reconcile(['c1', 'c2'])).owned).toEqual(new Set(['c1', 'c2']));
    expect((await b.reconcile(['c1', 'c2'])).owned).toEqual(new Set());
  });

  it('keeps a lease its owner renews, past the original expiry', async () => {
    now += 2000;
    expect((await a.reconcile(['c1', 'c2'])).owned).toEqual(new Set(['c1', 'c2']));
    now += 2000;
    expect((await b.reconcile(['c1', 'c2'])).owned).toEqual(new Set());
  });

  it('lets another replica take over once the owner stops renewing', async () => {
    now += 3001;
    expect((await b.reconcile(['c1', 'c2'])).owned).toEqual(new Set(['c1', 'c2']));
    // The old owner learns it lost them on its next reconcile.
    expect((await a.reconcile(['c1', 'c2'])).owned).toEqual(new Set());
  });

  it('releases leases of deleted clusters and on shutdown, without touching others', async () => {
    expect((await b.reconcile(['c1'])).owned).toEqual(new Set(['c1']));
    expect(await kv.get('scraper.c2')).toBeNull();
    await a.releaseAll();
    expect((await kv.get('scraper.c1'))?.value.owner).toBe('replica-b');
    await b.releaseAll();
    expect(await kv.keys()).toEqual([]);
  });

  it('never lets two racing replicas both win a free lease', async () => {
    const race = await Promise.all([a.reconcile(['c9']), b.reconcile(['c9'])]);
    expect(race.filter(({ owned }) => owned.has('c9'))).toHaveLength(1);
  });
});

describe('ClusterLeases with preferred owners', () => {
  let now = 1_000_000;
  const clock = () => now;
  const kv = new InMemoryKv<Lease>();
  const a = new ClusterLeases(kv, 'scraper', 'replica-a', 3000, clock);
  const b = new ClusterLeases(kv, 'scraper', 'replica-b', 3000, clock);
  const toB = new Map([['c1', 'replica-b']]);

  it('leaves a free lease to its preferred owner, who takes it at once', async () => {
    expect(await a.reconcile(['c1'], toB)).toEqual({ owned: new Set(), surplus: new Set() });
    expect((await b.reconcile(['c1'], toB)).owned).toEqual(new Set(['c1']));
  });

  it('keeps renewing a lease preferred elsewhere, as surplus, until it is released', async () => {
    const c2 = new ClusterLeases(kv, 'scraper', 'replica-a', 3000, clock);
    expect((await c2.reconcile(['c2'])).owned).toEqual(new Set(['c2']));
    now += 2000;
    expect(await c2.reconcile(['c2'], new Map([['c2', 'replica-b']]))).toEqual({
      owned: new Set(['c2']),
      surplus: new Set(['c2']),
    });
    now += 2000;
    // Renewed above: still a's, past its first expiry.
    const successor = new ClusterLeases(kv, 'scraper', 'replica-b', 3000, clock);
    const toSuccessor = new Map([['c2', 'replica-b']]);
    expect((await successor.reconcile(['c2'], toSuccessor)).owned).toEqual(new Set());
    await c2.release('c2');
    expect((await successor.reconcile(['c2'], toSuccessor)).owned).toEqual(new Set(['c2']));
  });

  it('takes a lease its preferred owner left free for a TTL, and keeps it a while', async () => {
    const toNobody = new Map([['c3', 'replica-gone']]);
    expect((await a.reconcile(['c3'], toNobody)).owned).toEqual(new Set());
    now += 3000;
    expect(await a.reconcile(['c3'], toNobody)).toEqual({ owned: new Set(['c3']), surplus: new Set() });
    now += 29_000;
    expect((await a.reconcile(['c3'], toNobody)).surplus).toEqual(new Set());
    now += 1000;
    expect((await a.reconcile(['c3'], toNobody)).surplus).toEqual(new Set(['c3']));
  });
});

describe('ClusterLeases and the leases held elsewhere', () => {
  it('says when the first lease another replica holds runs out, and nothing once none is held', async () => {
    let now = 1_000_000;
    const kv = new InMemoryKv<Lease>();
    const a = new ClusterLeases(kv, 'scraper', 'replica-a', 3000, () => now);
    const b = new ClusterLeases(kv, 'scraper', 'replica-b', 3000, () => now);
    const c = new ClusterLeases(kv, 'scraper', 'replica-c', 3000, () => now);
    await a.reconcile(['c1']);
    now += 1000;
    await c.reconcile(['c2']);
    now += 500;
    expect(b.msUntilOthersExpire()).toBeNull();
    await b.reconcile(['c1', 'c2']);
    expect(b.msUntilOthersExpire()).toBe(1500);
    now += 1600;
    // c1 ran out and b took it; c2's end is the next.
    expect((await b.reconcile(['c1', 'c2'])).owned).toEqual(new Set(['c1']));
    expect(b.msUntilOthersExpire()).toBe(900);
    await c.releaseAll();
    await b.reconcile(['c1', 'c2']);
    expect(b.msUntilOthersExpire()).toBeNull();
  });
});
