import { describe, expect, it } from 'vitest';
import { firingLevel, usualBand } from './use-queue-baseline';

const H = 3_600_000;
const T0 = Date.UTC(2026, 11, 7, 10);
const hour = (t: number, high: number) => ({
  t: new Date(t).toISOString(),
  low: 0,
  usual: high / 2,
  high,
  weeks: 2,
});

describe("a queue's usual band on its depth chart", () => {
  it('shades each hour that has a band over the whole hour, and says which have none', () => {
    const band = usualBand({
      from: '',
      to: '',
      hours: [hour(T0, 40), hour(T0 + 2 * H, 80)],
      why: '3 days of history',
    });
    expect(band.stretches).toEqual([
      { from: T0 / 1000, to: (T0 + H) / 1000, low: 0, high: 40 },
      { from: (T0 + 2 * H) / 1000, to: (T0 + 3 * H) / 1000, low: 0, high: 80 },
    ]);
    expect(band.note).toMatch(/^Shaded: the usual depth .*; some hours have none: 3 days of history\.$/);
  });

  it('says why there is no band at all, rather than drawing one at zero', () => {
    const band = usualBand({ from: '', to: '', hours: [], why: 'no history of this queue yet' });
    expect(band.stretches).toEqual([]);
    expect(band.note).toBe('No usual band: no history of this queue yet.');
  });

  it("draws where a baseline rule fires: its multiple of each hour's top, a top of 0 read as 1", () => {
    const { stretches } = usualBand({ from: '', to: '', hours: [hour(T0, 40), hour(T0 + H, 0)], why: null });
    const times = [T0 / 1000, (T0 + H) / 1000, (T0 + 2 * H) / 1000];
    expect(firingLevel(stretches, times, 5)).toEqual([200, 5, null]);
  });
});
