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

export interface FailedAttempt {
  /** Failures in a row, this one included. */
  count: number;
  kind?: JolokiaFailure;
  /** What the node asked for (HTTP Retry-After), if anything. */
  retryAfterMs?: number;
}

/**
 * How long to wait before polling a node again after a failure: a login refused waits
 * `LOGIN_REFUSED_RETRY_MS`; a node that says when to come back is not asked before then; anything
 * else backs off from one tick, doubling up to `MAX_BACKOFF_MS`, with full jitter on the part
 * beyond one tick so many silent nodes do not retry in step. `random` is in [0, 1).
 */
export function retryDelayMs(attempt: FailedAttempt, tickMs: number, random: number): number {
  if (attempt.kind === 'unauthorized') return LOGIN_REFUSED_RETRY_MS;
  const base = Math.min(tickMs * 2 ** (attempt.count - 1), MAX_BACKOFF_MS);
  const backoff = tickMs + random * Math.max(0, base - tickMs);
  return Math.max(backoff, attempt.retryAfterMs ?? 0);
}
