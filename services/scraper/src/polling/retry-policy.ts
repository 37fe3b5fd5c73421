import { jitteredDelay } from '@artemis-studio/timing';
import type { JolokiaFailure } from '../jolokia/jolokia-client';

/** A silent node is retried on a growing interval, up to this. */
export const MAX_BACKOFF_MS = 60_000;

/**
 * A refused login is retried this rarely. The same credentials cannot succeed until someone
 * changes them, which restarts the cluster's poller, so new ones are tried at once; and on Artemis
 * 2.40 every failed login lengthens the console's block of that user name (ADR-0003), for every
 * client of it, operators at the console included.
 */
export const LOGIN_REFUSED_RETRY_MS = 5 * 60_000;

/**
 * A node last seen live that stops answering is looked for at most this many ticks apart: unless a
 * backup took over, it may come back (a cluster member restarted) or serve clients Studio cannot
 * reach, and until it is seen live again its notifications are not observed.
 */
export const LAST_SEEN_LIVE_MAX_TICKS = 2;

export interface FailedAttempt {
  /** Failures in a row, this one included. */
  count: number;
  /** The node's last known role was live. */
  lastSeenLive?: boolean;
  kind?: JolokiaFailure;
  /** What the node asked for (HTTP Retry-After), if anything. */
  retryAfterMs?: number;
}

/**
 * How long to wait before polling a node again after a failure: a login refused waits
 * `LOGIN_REFUSED_RETRY_MS`; a node that says when to come back is not asked before then; anything
 * else backs off with the shared full-jitter backoff from one tick, doubling up to
 * `MAX_BACKOFF_MS` (two ticks for a node last seen live), and never sooner than a tick (a silent node is not polled faster than a live
 * one). `random` is in [0, 1).
 */
export function retryDelayMs(attempt: FailedAttempt, tickMs: number, random: number): number {
  if (attempt.kind === 'unauthorized') return LOGIN_REFUSED_RETRY_MS;
  const backoff = jitteredDelay(attempt.count - 1, {
    minMs: tickMs,
    maxMs: attempt.lastSeenLive
      ? Math.min(MAX_BACKOFF_MS, LAST_SEEN_LIVE_MAX_TICKS * tickMs)
      : MAX_BACKOFF_MS,
    random: () => random,
  });
  return Math.max(tickMs, backoff, attempt.retryAfterMs ?? 0);
}
