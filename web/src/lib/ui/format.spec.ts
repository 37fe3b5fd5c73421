import { describe, expect, it } from 'vitest';
import { formatDuration } from './format';

describe('formatDuration', () => {
  it('shows the two largest units that matter', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(40_000)).toBe('40 s');
    expect(formatDuration(12 * 60_000 + 5000)).toBe('12 min');
    expect(formatDuration(3 * 3_600_000 + 7 * 60_000)).toBe('3 h 7 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000)).toBe('3 d 4 h');
  });
});
