import { useEffect, useState, useSyncExternalStore } from 'react';
import { ApiError, describeError } from '../api-client';
import { useLive, usePause } from '../live-context';
import { deriveFreshness, type ActiveQuery, type Freshness } from './freshness';

/** "cluster · topology" from ['cluster', '<uuid>', 'topology']: ids and parameters left out. */
function labelOf(queryKey: readonly unknown[]): string {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-/i;
  return queryKey.filter((part) => typeof part === 'string' && !uuid.test(part)).join(' ') || 'a query';
}

/** The indicator's state, re-derived when the cache, the stream or the pause change, and every second. */
export function useFreshness(): Freshness {
  const live = useLive();
  const pause = usePause();
  // Subscribed for its changes of state; read afresh below for the latest frame's time.
  useSyncExternalStore(live.streams.subscribe, live.streams.currentStatus);
  const stream = live.streams.currentStatusNow();
  const [now, setNow] = useState(() => Date.now());
  const [, setVersion] = useState(0);

  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const unsubscribe = live.queryClient.getQueryCache().subscribe(() => setVersion((v) => v + 1));
    return () => {
      clearInterval(tick);
      unsubscribe();
    };
  }, [live]);

  const queries: ActiveQuery[] = live.queryClient
    .getQueryCache()
    .findAll({ type: 'active' })
    // Read when the operator asks (a queue's messages), not kept fresh: the screen dates them itself.
    .filter((q) => q.meta?.onDemand !== true)
    .map((q) => ({
      label: typeof q.meta?.label === 'string' ? q.meta.label : labelOf(q.queryKey),
      status: q.state.status,
      fetching: q.state.fetchStatus === 'fetching',
      dataUpdatedAt: q.state.dataUpdatedAt,
      errorUpdatedAt: q.state.errorUpdatedAt,
      error: q.state.error ? describeError(q.state.error) : null,
      gatewayUnreachable: q.state.error instanceof ApiError && q.state.error.code === 'GATEWAY_UNREACHABLE',
    }));
  return deriveFreshness(
    {
      paused: pause.paused,
      waiting: pause.waiting,
      stream,
      queries,
      pollFloorMs: live.settings.pollFloorMs(),
    },
    Math.max(now, Date.now()),
  );
}
