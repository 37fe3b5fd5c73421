import type { BrokerEvent } from '@artemis-studio/contracts';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useLive, useStreamListener } from '../live-context';
import { LiveEventFeed, type LiveEventsSnapshot } from './live-event-feed';

/**
 * The cluster's broker events as they arrive, newest first, those `accept` lets through, held
 * while the console is paused (ADR-0052). `selection` names the choice `accept` makes: `accept` is
 * a new function at every render, so the live part starts afresh only when `selection` changes.
 */
export function useLiveEvents(
  clusterId: string,
  accept: (event: BrokerEvent) => boolean,
  selection: string,
): LiveEventsSnapshot {
  const { pause } = useLive();
  // A feed per cluster: another cluster is another stream, and nothing heard on the first applies.
  const feed = useMemo(() => new LiveEventFeed(pause), [pause, clusterId]);
  // Deliberately keyed on `selection`, not on `accept` (see above).
  useEffect(() => feed.select(accept), [feed, selection]);
  useEffect(() => feed.followPause(), [feed]);
  useStreamListener(clusterId, feed.listener);
  return useSyncExternalStore(feed.subscribe, feed.get);
}
