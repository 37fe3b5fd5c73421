import { KNOWN_TOPICS, type Topic } from '@artemis-studio/contracts';
import type { Query, QueryClient } from '@tanstack/react-query';
import type { PauseSignal } from '../freshness/pause';
import { queryKeys, TOPIC_QUERY_KEYS } from '../query-keys';
import {
  ClusterStream,
  type EventSourceFactory,
  type StreamListener,
  type StreamStatus,
} from './cluster-stream';

export interface StreamRegistryOptions {
  queryClient: QueryClient;
  pause: PauseSignal;
  watchdogMs: () => number;
  createEventSource?: EventSourceFactory;
}

interface Entry {
  stream: ClusterStream;
  holders: Map<symbol, readonly Topic[]>;
  listeners: Set<StreamListener>;
  stopTimer?: ReturnType<typeof setTimeout>;
}

/**
 * One stream per cluster, shared by every component of the cluster's view (ADR-0018), with the
 * union of the topics they asked for. It ties the stream to the query cache: a signal invalidates
 * exactly its topic's keys, or, while paused, only marks them stale and counts an update waiting.
 */
export class StreamRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly changeListeners = new Set<() => void>();
  private latest: string | null = null;

  constructor(private readonly options: StreamRegistryOptions) {}

  /** Holds the cluster's stream open with at least `topics`; the returned function lets go. */
  acquire(clusterId: string, topics: readonly Topic[]): () => void {
    const entry = this.entry(clusterId);
    clearTimeout(entry.stopTimer);
    const token = Symbol(clusterId);
    entry.holders.set(token, topics);
    entry.stream.setTopics(unionOf(entry.holders));
    entry.stream.start();
    this.latest = clusterId;
    this.changed();
    return () => {
      entry.holders.delete(token);
      if (entry.holders.size > 0) return entry.stream.setTopics(unionOf(entry.holders));
      // Released and taken again in the same tick (a re-render, React's strict mode): keep it open.
      entry.stopTimer = setTimeout(() => {
        if (entry.holders.size > 0) return;
        entry.stream.stop();
        this.forgetIfIdle(clusterId, entry);
        if (this.latest === clusterId) this.latest = null;
        this.changed();
      }, 0);
    };
  }

  /** Listens to a cluster's frames whether or not its stream is open yet. */
  listen(clusterId: string, listener: StreamListener): () => void {
    const entry = this.entry(clusterId);
    entry.listeners.add(listener);
    return () => {
      entry.listeners.delete(listener);
      this.forgetIfIdle(clusterId, entry);
    };
  }

  /** An entry nobody holds or listens to is dropped, its stream already stopped. */
  private forgetIfIdle(clusterId: string, entry: Entry): void {
    if (entry.holders.size === 0 && entry.listeners.size === 0 && this.entries.get(clusterId) === entry)
      this.entries.delete(clusterId);
  }

  status(clusterId: string): StreamStatus | null {
    return this.entries.get(clusterId)?.stream.status ?? null;
  }

  isLive(clusterId: string): boolean {
    return this.status(clusterId)?.state === 'live';
  }

  /** The stream of the cluster view on screen, or null on a screen without one. */
  currentStatus = (): StreamStatus | null => {
    const entry = this.latest === null ? undefined : this.entries.get(this.latest);
    return entry && entry.holders.size > 0 ? entry.stream.status : null;
  };

  /** The current stream's status with the time of its latest frame, for the indicator's sentence. */
  currentStatusNow(): StreamStatus | null {
    const status = this.currentStatus();
    const entry = this.latest === null ? undefined : this.entries.get(this.latest);
    return status && entry ? { ...status, lastFrameAt: entry.stream.lastFrameAt } : status;
  }

  /** The browser came back online or the tab became visible: every held stream tries now. */
  reconnectAll(): void {
    for (const entry of this.entries.values()) entry.stream.reconnectNow();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  };

  private entry(clusterId: string): Entry {
    const existing = this.entries.get(clusterId);
    if (existing) return existing;
    const stream = new ClusterStream(clusterId, [], {
      watchdogMs: this.options.watchdogMs,
      createEventSource: this.options.createEventSource,
    });
    const entry: Entry = { stream, holders: new Map(), listeners: new Set() };
    this.entries.set(clusterId, entry);
    const forward = (call: (l: StreamListener) => void) => {
      for (const listener of [...entry.listeners]) call(listener);
    };
    let wasLive = false;
    stream.listen({
      signal: (signal) => {
        forward((l) => l.signal?.(signal));
        this.invalidate(TOPIC_QUERY_KEYS[signal.topic](clusterId));
      },
      event: (event) => {
        this.options.pause.noteWaiting();
        forward((l) => l.event?.(event));
      },
      gap: (gap) => forward((l) => l.gap?.(gap)),
      removed: (frame) => {
        forward((l) => l.removed?.(frame));
        void this.options.queryClient.invalidateQueries({ queryKey: queryKeys.clusters() });
      },
      status: (status) => {
        forward((l) => l.status?.(status));
        const live = status.state === 'live';
        // Signals may have been missed while down, and polling starts or stops with the stream:
        // either way the screen's queries fetch once now (their interval is re-read after a fetch).
        if (live !== wasLive && status.state !== 'connecting')
          this.invalidate([queryKeys.cluster(clusterId)]);
        wasLive = live;
        this.changed();
      },
    });
    return entry;
  }

  /**
   * A signal's queries read again. A query's first fetch still under way is cancelled and asked
   * again: TanStack Query would have the invalidation join a fetch in flight when the query has no
   * data yet, and that fetch may have been answered before the change. The screen then showed
   * what came before until the next change, under a Live indicator (a fresh-clone CI run: a
   * queue's page opened as the scraper first read its 30 messages never showed them).
   */
  private invalidate(keys: readonly (readonly unknown[])[]): void {
    const { queryClient, pause } = this.options;
    if (pause.isPaused()) {
      pause.noteWaiting();
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
      return;
    }
    for (const queryKey of keys)
      void queryClient
        .cancelQueries({ queryKey, predicate: firstFetchUnderWay })
        .then(() => queryClient.invalidateQueries({ queryKey, refetchType: 'active' }));
  }

  private changed(): void {
    for (const listener of [...this.changeListeners]) listener();
  }
}

const firstFetchUnderWay = (query: Query): boolean =>
  query.state.fetchStatus === 'fetching' && query.state.data === undefined;

function unionOf(holders: Map<symbol, readonly Topic[]>): Topic[] {
  const wanted = new Set([...holders.values()].flat());
  return KNOWN_TOPICS.filter((t) => wanted.has(t));
}
