import { QueryCache, QueryClient, type Query } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { ConsoleSettings } from './console-settings';
import { queryKeys } from './query-keys';
import { pauseSignal, type PauseSignal } from './freshness/pause';
import { reconnectDelay } from './stream/backoff';
import { StreamRegistry } from './stream/stream-registry';

export interface Live {
  queryClient: QueryClient;
  streams: StreamRegistry;
  pause: PauseSignal;
  settings: ConsoleSettings;
}

/**
 * How often a query re-reads: never while paused; at the floor while its stream is not live; and
 * while it is, only when the query's data also changes without a signal (`meta.refreshWhileLiveMs`).
 * A query that failed is tried again with the stream's own backoff (1 s to 30 s, jittered), live
 * or not: a live stream brings no signal for a fault that has gone, and without this a screen
 * stayed Offline after the event store came back, on a quiet broker for ever.
 */
export function pollInterval(q: {
  paused: boolean;
  live: boolean;
  floorMs: number;
  whileLiveMs: unknown;
  /** Failures in a row, for a query in error that asking again may mend; null otherwise. */
  failuresInARow?: number | null;
  random?: () => number;
}): number | false {
  if (q.paused) return false;
  const polled = !q.live
    ? q.floorMs
    : typeof q.whileLiveMs === 'number'
      ? Math.max(q.whileLiveMs, q.floorMs)
      : false;
  if (q.failuresInARow === null || q.failuresInARow === undefined) return polled;
  const retry = reconnectDelay(Math.max(0, q.failuresInARow - 1), q.random);
  return polled === false ? retry : Math.min(polled, retry);
}

/** Refused (401, 403) is an answer, not a blip: asking again changes nothing. */
const isRefusal = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 401 || error.status === 403);

/**
 * The console's data layer: the query cache, the cluster streams that keep it fresh, the pause.
 * "The poll is the floor" (ADR-0018): a query polls at the floor interval unless its cluster's
 * stream is live, and nothing polls while paused; decided here once for every query.
 */
export function createLive(pause: PauseSignal = pauseSignal, settings = new ConsoleSettings()): Live {
  // The cache's polling asks the streams, which invalidate the cache: one is made after the other.
  const made: { streams?: StreamRegistry } = {};
  // Failed fetches in a row per query, for the retry's backoff; forgotten at its next success.
  const failures = new WeakMap<object, number>();
  const interval = (query: Query): number | false => {
    const [scope, clusterId] = query.queryKey;
    const failed = query.state.status === 'error' && !isRefusal(query.state.error);
    return pollInterval({
      paused: pause.isPaused(),
      live: scope === 'cluster' && typeof clusterId === 'string' && !!made.streams?.isLive(clusterId),
      floorMs: settings.pollFloorMs(),
      whileLiveMs: query.meta?.refreshWhileLiveMs,
      failuresInARow: failed ? Math.max(1, failures.get(query) ?? 0) : null,
    });
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        failures.set(query, (failures.get(query) ?? 0) + 1);
        // A query refused as unauthenticated means the session ended (signed out elsewhere,
        // expired, revoked): who is signed in is asked again, and the console shows the sign-in page.
        if (error instanceof ApiError && error.status === 401)
          void queryClient.invalidateQueries({ queryKey: queryKeys.me() });
      },
      onSuccess: (_data, query) => void failures.delete(query),
    }),
    defaultOptions: {
      queries: {
        refetchInterval: interval,
        refetchOnWindowFocus: () => !pause.isPaused(),
        refetchOnReconnect: () => !pause.isPaused(),
        retry: (attempts, error) => attempts < 2 && !isRefusal(error),
      },
    },
  });
  const streams = new StreamRegistry({ queryClient, pause, watchdogMs: settings.watchdogMs });
  made.streams = streams;

  // A query's interval is re-read only when its options or result change: re-apply them when the
  // pause or a stream's state changes, or a poll already scheduled would still run once.
  const reapplyIntervals = () => {
    for (const query of queryClient.getQueryCache().getAll())
      for (const observer of query.observers) observer.setOptions(observer.options);
  };
  pause.subscribe(reapplyIntervals);
  streams.subscribe(reapplyIntervals);
  pause.onResume(() => void queryClient.refetchQueries({ type: 'active' }));
  return { queryClient, streams, pause, settings };
}
