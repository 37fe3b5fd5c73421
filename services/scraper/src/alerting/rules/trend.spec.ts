import { secondsUntil, Trend } from './trend';

describe('Trend', () => {
  it('knows no rate from two samples, and the exact rate of a steady fill from three', () => {
    const trend = new Trend();
    trend.add(0, 100);
    trend.add(10_000, 200);
    expect(trend.perSecond()).toBeNull();
    trend.add(20_000, 300);
    expect(trend.perSecond()).toBeCloseTo(10);
  });

  it('forgets samples older than its window, so a fill that stopped reads as flat', () => {
    const trend = new Trend(30_000);
    for (let s = 0; s <= 60; s += 10) trend.add(s * 1000, s <= 20 ? s * 100 : 2000);
    expect(trend.perSecond()).toBeCloseTo(0);
  });
});

describe('secondsUntil', () => {
  it('is 0 once there, Infinity when not growing, null without a rate', () => {
    expect(secondsUntil(90, 100, 2)).toBe(5);
    expect(secondsUntil(100, 100, null)).toBe(0);
    expect(secondsUntil(50, 100, 0)).toBe(Infinity);
    expect(secondsUntil(50, 100, -1)).toBe(Infinity);
    expect(secondsUntil(50, 100, null)).toBeNull();
  });
});
