import { describe, expect, it } from 'vitest';
import { sparklinePath } from './sparkline';

describe('sparklinePath', () => {
  it('scales from zero to the highest value across the width', () => {
    expect(sparklinePath([0, 5, 10], 100, 12)).toBe('M0.0,11.0L50.0,6.0L100.0,1.0');
  });

  it('lifts the pen over a gap instead of drawing across what was not observed', () => {
    expect(sparklinePath([1, null, 1], 10, 12)).toBe('M0.0,1.0M10.0,1.0');
  });

  it('draws a flat series along the bottom and nothing when nothing was observed', () => {
    expect(sparklinePath([0, 0], 10, 12)).toBe('M0.0,11.0L10.0,11.0');
    expect(sparklinePath([null, null], 10, 12)).toBe('');
  });
});
