import { readPolling } from './polling-reading';

/** studio-scraper-unowned: read by any replica from the lease and the nodes' last observation. */
describe('the studio-scraper-unowned rule', () => {
  const rule = { kind: 'studio-scraper-unowned' as const, subjects: '*', threshold: null };
  const now = new Date('2026-12-06T05:00:00Z');
  const ago = (s: number) => new Date(now.getTime() - s * 1000);
  const read = (owned: boolean, lastPolledAt: Date | null) =>
    readPolling(rule, { owned, lastPolledAt }, now, 15_000);

  it('does not hold while a replica holds the lease and polled within the bound', () => {
    expect(read(true, ago(4))).toEqual([{ subject: 'scraper', holds: false, value: 4 }]);
  });

  it('holds with no lease, however fresh the last figures', () => {
    expect(read(false, ago(2))).toEqual([{ subject: 'scraper', holds: true, value: 2 }]);
  });

  it('holds when the lease is held but the nodes were not observed within the bound, or never', () => {
    expect(read(true, ago(16))).toEqual([{ subject: 'scraper', holds: true, value: 16 }]);
    expect(read(true, null)).toEqual([{ subject: 'scraper', holds: true, value: null }]);
  });

  it('reads nothing for another kind or a pattern that does not name its subject', () => {
    expect(
      readPolling({ ...rule, subjects: 'notifier' }, { owned: false, lastPolledAt: null }, now, 1),
    ).toEqual([]);
    expect(
      readPolling({ ...rule, kind: 'studio-notifier-unowned' }, { owned: false, lastPolledAt: null }, now, 1),
    ).toEqual([]);
  });
});
