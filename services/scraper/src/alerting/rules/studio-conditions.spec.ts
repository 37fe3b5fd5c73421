import { readStudio, type StudioFacts } from './conditions';

const now = new Date('2026-12-01T10:00:00Z');

describe('Studio conditions', () => {
  const facts = (over: Partial<StudioFacts> = {}): StudioFacts => ({
    notifications: 'AVAILABLE',
    dropped: 0,
    lastDropAt: null,
    notifierOwned: true,
    lastUnobserved: null,
    redrivesPaused: 0,
    lastRedrivePausedAt: null,
    ...over,
  });

  it('reads the verdict, unknown while the notifier has given none or cannot tell', () => {
    const rule = { kind: 'studio-notifications-unavailable' as const, subjects: '*', threshold: null };
    expect(readStudio(rule, facts({ notifications: 'UNAVAILABLE' }), now)).toEqual([
      { subject: 'notifications', holds: true, value: 1 },
    ]);
    expect(readStudio(rule, facts(), now)[0].holds).toBe(false);
    expect(readStudio(rule, facts({ notifications: 'UNKNOWN' }), now)[0].holds).toBeNull();
    expect(readStudio(rule, facts({ notifications: null }), now)[0].holds).toBeNull();
  });

  it('holds for its threshold after events were lost, and sees an unowned notifier', () => {
    const dropped = { kind: 'studio-events-dropped' as const, subjects: '*', threshold: 600 };
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    expect(readStudio(dropped, facts({ dropped: 12, lastDropAt: ago(60) }), now)).toEqual([
      { subject: 'events', holds: true, value: 12 },
    ]);
    expect(readStudio(dropped, facts({ dropped: 12, lastDropAt: ago(700) }), now)[0].holds).toBe(false);
    const paused = { kind: 'studio-redrive-paused' as const, subjects: '*', threshold: 600 };
    expect(readStudio(paused, facts({ redrivesPaused: 2, lastRedrivePausedAt: ago(30) }), now)).toEqual([
      { subject: 'redrives', holds: true, value: 2 },
    ]);
    expect(
      readStudio(paused, facts({ redrivesPaused: 2, lastRedrivePausedAt: ago(900) }), now)[0].holds,
    ).toBe(false);
    const unowned = { kind: 'studio-notifier-unowned' as const, subjects: 'notifier', threshold: null };
    expect(readStudio(unowned, facts({ notifierOwned: false }), now)[0].holds).toBe(true);
    expect(readStudio({ ...unowned, subjects: 'events' }, facts(), now)).toEqual([]);
  });

  it('holds for its threshold after an unobserved period ended, its length as the value', () => {
    const rule = { kind: 'studio-unobserved' as const, subjects: '*', threshold: 900 };
    const until = new Date(now.getTime() - 60_000);
    expect(readStudio(rule, facts({ lastUnobserved: { until, seconds: 42 } }), now)).toEqual([
      { subject: 'observation', holds: true, value: 42 },
    ]);
    const old = new Date(now.getTime() - 3600_000);
    expect(readStudio(rule, facts({ lastUnobserved: { until: old, seconds: 42 } }), now)[0].holds).toBe(
      false,
    );
    expect(readStudio(rule, facts(), now)[0].holds).toBe(false);
  });
});
