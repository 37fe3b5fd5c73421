import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import type { Topic } from '@artemis-studio/contracts';
import type { Live } from './live';
import type { StreamListener, StreamStatus } from './stream/cluster-stream';
import type { PauseSnapshot } from './freshness/pause';

const LiveContext = createContext<Live | null>(null);

export function LiveProvider({ live, children }: { live: Live; children: ReactNode }) {
  useEffect(() => {
    // A laptop waking or a network coming back: every held stream tries at once (ADR-0052).
    const now = () => live.streams.reconnectAll();
    const visible = () => document.visibilityState === 'visible' && now();
    window.addEventListener('online', now);
    document.addEventListener('visibilitychange', visible);
    return () => {
      window.removeEventListener('online', now);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [live]);
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}

export function useLive(): Live {
  const live = useContext(LiveContext);
  if (!live) throw new Error('useLive outside LiveProvider');
  return live;
}

/**
 * Holds the cluster's one shared stream open while the calling view is mounted, with at least
 * these topics, and returns its status.
 */
export function useClusterStream(clusterId: string, topics: readonly Topic[]): StreamStatus | null {
  const { streams } = useLive();
  const topicsKey = topics.join(',');
  useEffect(
    () => streams.acquire(clusterId, topicsKey.split(',') as Topic[]),
    [streams, clusterId, topicsKey],
  );
  return useSyncExternalStore(streams.subscribe, () => streams.status(clusterId));
}

/** Listens to the cluster stream's frames (events, gaps, removal) while mounted. */
export function useStreamListener(clusterId: string, listener: StreamListener): void {
  const { streams } = useLive();
  useEffect(() => streams.listen(clusterId, listener), [streams, clusterId, listener]);
}

export function usePause(): PauseSnapshot {
  const { pause } = useLive();
  return useSyncExternalStore(pause.subscribe, pause.get);
}
