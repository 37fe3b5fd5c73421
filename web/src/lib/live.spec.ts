import { describe, expect, it } from 'vitest';
import { pollInterval } from './live';

describe('pollInterval', () => {
  const floorMs = 5000;

  it('polls at the floor while the stream is not live, and not at all while live', () => {
    expect(pollInterval({ paused: false, live: false, floorMs, whileLiveMs: undefined })).toBe(5000);
    expect(pollInterval({ paused: false, live: true, floorMs, whileLiveMs: undefined })).toBe(false);
  });

  it('keeps re-reading data that changes unsignalled, never faster than the floor', () => {
    expect(pollInterval({ paused: false, live: true, floorMs, whileLiveMs: 30_000 })).toBe(30_000);
    expect(pollInterval({ paused: false, live: true, floorMs, whileLiveMs: 1000 })).toBe(5000);
  });

  it('reads nothing while paused, whatever the query asks', () => {
    expect(pollInterval({ paused: true, live: false, floorMs, whileLiveMs: 30_000 })).toBe(false);
    expect(pollInterval({ paused: true, live: true, floorMs, whileLiveMs: 30_000 })).toBe(false);
  });
});
