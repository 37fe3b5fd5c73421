import { describe, expect, it } from 'vitest';
import { formatDuration, formatNumber, formatRate } from './format';

describe('formatDuration', () => {
  it('shows the two largest units that matter', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(40_000)).toBe('40 s');
    expect(formatDuration(12 * 60_000 + 5000)).toBe('12 min');
    expect(formatDuration(3 * 3_600_000 + 7 * 60_000)).toBe('3 h 7 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000)).toBe('3 d 4 h');
  });
});

describe('formatRate', () => {
  it('shows a decimal only where it matters, and an unknown rate as unknown rather than zero', () => {
    expect(formatRate(null)).toBe('—');
    expect(formatRate(0)).toBe('0');
    const oneDecimal = new Intl.NumberFormat([], { maximumFractionDigits: 1 });
    expect(formatRate(0.26)).toBe(oneDecimal.format(0.3));
    expect(formatRate(2.04)).toBe(oneDecimal.format(2));
    expect(formatRate(1234.6)).toBe(formatNumber(1235));
  });
});
