/**
 * Waiting, the one way every package does it: a sleep that stopping cuts short, a timeout that
 * says what it means, and one jittered exponential backoff. Its own package, below the bus and the
 * platform, because both wait.
 */

/** Resolves after `ms`, or at once when `signal` aborts (a stopping loop must not wait out its sleep). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The promise's outcome, or `onTimeout()`'s (a value, or a throw) after `ms`, whichever comes
 * first. The promise itself is not cancelled: it settles in the background.
 */
export async function withTimeout<T, U = never>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => U,
): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<U>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (err) {
        reject(err);
      }
    }, ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

interface BackoffOptions {
  /** The first bound, and the floor the jitter never goes below one tenth of. */
  minMs: number;
  /** Where the doubling stops. */
  maxMs: number;
  /** [0, 1); Math.random unless a test fixes it. */
  random?: () => number;
}

/**
 * Attempt `attempt` (0-based) of an exponential backoff with full jitter: a uniform draw below
 * min × 2^attempt, capped at max, and never below a tenth of min (a zero delay is a tight loop
 * against a dead host). Full jitter, so many clients that failed together do not retry together.
 */
export function jitteredDelay(
  attempt: number,
  { minMs, maxMs, random = Math.random }: BackoffOptions,
): number {
  const bound = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 52));
  return Math.max(minMs / 10, Math.floor(random() * bound));
}

/** The delays of consecutive failures; `reset()` after a success starts again from the floor. */
export class Backoff {
  private attempt = 0;

  constructor(private readonly options: BackoffOptions) {}

  next(): number {
    return jitteredDelay(this.attempt++, this.options);
  }

  reset(): void {
    this.attempt = 0;
  }
}
