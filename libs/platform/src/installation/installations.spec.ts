import { InMemoryKv } from '@artemis-studio/bus';
import { memberKey, type Member } from '@artemis-studio/contracts';
import { installationsBesides, presenceService, renewedSince } from './installations';

const NOW = Date.parse('2026-12-05T12:00:00Z');
const member = (expiresInMs: number, database?: string): Member => ({
  replica: 'r',
  joinedAt: new Date(NOW - 60_000).toISOString(),
  expiresAt: new Date(NOW + expiresInMs).toISOString(),
  ...(database ? { database } : {}),
});

describe('the installations present on one NATS', () => {
  it('names the others alive now, with their database and what of them is present', async () => {
    const kv = new InMemoryKv<Member>();
    await kv.put(memberKey('scraper', 'mine', 'host-1'), member(10_000));
    await kv.put(
      memberKey(presenceService('gateway'), 'theirs', 'a1'),
      member(10_000, 'db.prod:5432/studio'),
    );
    await kv.put(memberKey('notifier', 'theirs', 'pod.ns.svc-2'), member(5_000));
    await kv.put(memberKey(presenceService('event-store'), 'gone', 'b1'), member(-1));
    expect(await installationsBesides(kv, 'mine', NOW)).toEqual([
      {
        installation: 'theirs',
        database: 'db.prod:5432/studio',
        services: ['gateway', 'notifier'],
        expiries: {
          [memberKey(presenceService('gateway'), 'theirs', 'a1')]: NOW + 10_000,
          [memberKey('notifier', 'theirs', 'pod.ns.svc-2')]: NOW + 5_000,
        },
      },
    ]);
  });

  it('finds none when every other presence has lapsed', async () => {
    const kv = new InMemoryKv<Member>();
    await kv.put(memberKey(presenceService('gateway'), 'theirs', 'a1'), member(-1_000));
    expect(await installationsBesides(kv, 'mine', NOW)).toEqual([]);
  });

  it('tells a running installation, which renews its entries, from one only lapsing', async () => {
    const kv = new InMemoryKv<Member>();
    await kv.put(memberKey(presenceService('gateway'), 'theirs', 'a1'), member(10_000));
    const before = await installationsBesides(kv, 'mine', NOW);
    expect(renewedSince(before, await installationsBesides(kv, 'mine', NOW + 6_000))).toBe(false);
    await kv.put(memberKey(presenceService('gateway'), 'theirs', 'a1'), member(15_000));
    expect(renewedSince(before, await installationsBesides(kv, 'mine', NOW + 6_000))).toBe(true);
    // One that appeared meanwhile is not known to be running yet: it is watched the same way.
    expect(renewedSince([], await installationsBesides(kv, 'mine', NOW))).toBe(false);
  });

  it('does not take an entry one listing missed for a renewal: a stopped stack only lapsing', async () => {
    const kv = new InMemoryKv<Member>();
    await kv.put(memberKey(presenceService('gateway'), 'theirs', 'a1'), member(3_000));
    const partial = await installationsBesides(kv, 'mine', NOW);
    await kv.put(memberKey(presenceService('notifier'), 'theirs', 'b1'), member(9_000));
    // Both entries were written before the first listing; it returned only one of them.
    expect(renewedSince(partial, await installationsBesides(kv, 'mine', NOW + 2_000))).toBe(false);
  });

  it('forgets a presence that lapsed long ago, and no member of the owners', async () => {
    const kv = new InMemoryKv<Member>();
    await kv.put(memberKey(presenceService('gateway'), 'theirs', 'killed'), member(-10 * 60_000));
    await kv.put(memberKey(presenceService('gateway'), 'theirs', 'just-killed'), member(-1_000));
    await kv.put(memberKey('scraper', 'theirs', 'r1'), member(-10 * 60_000));
    expect(await installationsBesides(kv, 'mine', NOW)).toEqual([]);
    expect((await kv.keys()).sort()).toEqual([
      memberKey(presenceService('gateway'), 'theirs', 'just-killed'),
      memberKey('scraper', 'theirs', 'r1'),
    ]);
  });
});
