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

  it("tries a failed query again with the stream's backoff, live or not, and never while paused", () => {
    const low = () => 0;
    const high = () => 0.999999;
    const failed = (failuresInARow: number, random: () => number, live = true, paused = false) =>
      pollInterval({ paused, live, floorMs, whileLiveMs: undefined, failuresInARow, random });
    // The first retry within 1 to 2 s, then a ceiling that doubles up to 30 s.
    expect(failed(1, low)).toBe(1000);
    expect(failed(1, high)).toBe(2000);
    expect(failed(9, high)).toBe(30_000);
    // Polling already: whichever comes first.
    expect(failed(9, high, false)).toBe(5000);
    expect(failed(1, low, false)).toBe(1000);
    expect(failed(1, low, true, true)).toBe(false);
  });
});
