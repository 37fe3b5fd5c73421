import { describe, expect, it } from 'vitest';
import { RECONNECT_CAP_MS, RECONNECT_FLOOR_MS, reconnectDelay } from './backoff';

describe('reconnectDelay', () => {
  it('never waits less than the floor nor more than the cap, at any attempt', () => {
    for (let attempt = 0; attempt < 40; attempt++)
      for (const r of [0, 0.5, 0.999999]) {
        const delay = reconnectDelay(attempt, () => r);
        expect(delay).toBeGreaterThanOrEqual(RECONNECT_FLOOR_MS);
        expect(delay).toBeLessThanOrEqual(RECONNECT_CAP_MS);
      }
  });

  it('grows its ceiling exponentially until the cap', () => {
    const ceiling = (attempt: number) => reconnectDelay(attempt, () => 1);
    expect([0, 1, 2, 3, 4, 5, 10].map(ceiling)).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('spreads retries uniformly between the floor and the ceiling (full jitter)', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const draws = Array.from({ length: 10_000 }, () => reconnectDelay(10, random));
    const buckets = new Array(10).fill(0);
    for (const d of draws) buckets[Math.min(9, Math.floor(((d - 1000) / 29_000) * 10))]++;
    // Each tenth of [1 s, 30 s] holds about a tenth of the draws: no clump for every tab to hit at once.
    for (const count of buckets) expect(count).toBeGreaterThan(800);
    for (const count of buckets) expect(count).toBeLessThan(1200);
  });
});
