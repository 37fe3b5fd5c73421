import {
  LAST_SEEN_LIVE_MAX_TICKS,
  LOGIN_REFUSED_RETRY_MS,
  MAX_BACKOFF_MS,
  retryDelayMs,
} from './retry-policy';

describe('retryDelayMs', () => {
  const tick = 1000;

  it('backs a silent node off from one tick, doubling up to the cap, jittered, never below a tick', () => {
    expect(retryDelayMs({ count: 1, kind: 'timeout' }, tick, 0.99)).toBe(tick);
    expect(retryDelayMs({ count: 3, kind: 'unreachable' }, tick, 0)).toBe(tick);
    expect(retryDelayMs({ count: 3, kind: 'unreachable' }, tick, 0.5)).toBe(0.5 * 4 * tick);
    expect(retryDelayMs({ count: 30 }, tick, 0.999_999)).toBeCloseTo(MAX_BACKOFF_MS, -1);
  });

  it('retries a refused login rarely, whatever the count: each retry lengthens the broker’s block', () => {
    expect(retryDelayMs({ count: 1, kind: 'unauthorized' }, tick, 0)).toBe(LOGIN_REFUSED_RETRY_MS);
    expect(LOGIN_REFUSED_RETRY_MS).toBeGreaterThan(MAX_BACKOFF_MS);
  });

  it('does not ask a node that said when to come back before then', () => {
    expect(retryDelayMs({ count: 1, kind: 'throttled', retryAfterMs: 8000 }, tick, 0)).toBe(8000);
    expect(retryDelayMs({ count: 8, kind: 'throttled', retryAfterMs: 100 }, tick, 0.99)).toBeGreaterThan(100);
  });

  it('looks for a node last seen live at most two ticks apart: it may be back, or serving unseen', () => {
    expect(retryDelayMs({ count: 30, kind: 'unreachable', lastSeenLive: true }, tick, 0.999_999)).toBeCloseTo(
      LAST_SEEN_LIVE_MAX_TICKS * tick,
      -1,
    );
    expect(retryDelayMs({ count: 1, kind: 'unauthorized', lastSeenLive: true }, tick, 0)).toBe(
      LOGIN_REFUSED_RETRY_MS,
    );
  });
});
