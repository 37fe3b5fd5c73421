import { describe, expect, it } from 'vitest';
import { diskText, memoryText, nearLimit } from './storage-text';

const storage = { diskUsage: 0.6948, diskLimit: 0.9, memoryBytes: 48_971_785, memoryLimitBytes: 268_435_456 };

describe("a node's storage", () => {
  it('says disk and memory against the limits where the broker blocks or pages', () => {
    expect(diskText(storage)).toBe('69% (blocks at 90%)');
    expect(memoryText(storage)).toBe('46.7 MB of 256 MB');
  });

  it('says nothing it was not told, never 0', () => {
    const unknown = { diskUsage: null, diskLimit: null, memoryBytes: null, memoryLimitBytes: null };
    expect(diskText(unknown)).toBe('—');
    expect(memoryText(unknown)).toBe('—');
    expect(diskText({ ...storage, diskLimit: null })).toBe('69%');
  });

  it('marks a figure within a tenth of its limit', () => {
    expect(nearLimit(0.82, 0.9)).toBe(true);
    expect(nearLimit(0.5, 0.9)).toBe(false);
    expect(nearLimit(100, null)).toBe(false);
  });
});
