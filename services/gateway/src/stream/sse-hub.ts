import type { Bus, Unsubscribe } from '@artemis-studio/bus';
import { channels, subjectPatterns, subjects, type BrokerEvent } from '@artemis-studio/contracts';
import { clusterRemovedFrame, eventFrame, signalFrame, type SseClient } from './sse-client';

/** A Last-Event-ID replay: the newest events after the cursor, and how many older ones the cap left out. */
export interface Replay {
  events: BrokerEvent[];
  skipped?: number;
}

interface ClusterFeed {
  clients: Set<SseClient>;
  /** Resolves once the server has the subscriptions: a replay read after it cannot miss an event. */
  subscribed: Promise<void>;
  unsubscribe: Unsubscribe[];
}

export interface HubMetrics {
  clients(count: number): void;
  replayed(count: number): void;
  replayFailed(): void;
}

/**
 * The gateway's SSE hub (ADR-0018, ADR-0027). All clients of a cluster share one subscription to
 * its signals and one to its stored events, taken with the first client and released with the
 * last. Every gateway replica subscribes on its own, so each delivers every frame to its clients.
 */
export class SseHub {
  private readonly feeds = new Map<string, ClusterFeed>();
  private count = 0;

  constructor(
    private readonly bus: Bus,
    private readonly replay: (clusterId: string, afterSeq: number) => Promise<Replay>,
    private readonly metrics: HubMetrics,
  ) {}

  /**
   * Adds a client. With a Last-Event-ID, the live subscription is in place before the replay is
   * read, and the client holds live events until the replay is sent: nothing falls in between.
   */
  async open(client: SseClient, lastEventId: number | undefined): Promise<void> {
    const feed = this.feed(client.clusterId);
    feed.clients.add(client);
    this.metrics.clients(++this.count);
    if (lastEventId === undefined || !client.wantsEvents) return client.finishReplay([]);
    await feed.subscribed;
    let replay: Replay;
    try {
      replay = await this.replay(client.clusterId, lastEventId);
    } catch {
      // No history to replay from (event store away): the client still goes live, told that what
      // it missed is not on this stream; the events view's history shows it once the store is back.
      this.metrics.replayFailed();
      return client.finishReplay([], { replayFrom: null, missed: null, reason: 'history-unavailable' });
    }
    this.metrics.replayed(replay.events.length);
    const skipped = replay.skipped ?? 0;
    client.finishReplay(
      replay.events,
      skipped > 0
        ? { replayFrom: replay.events[0]?.seq ?? null, missed: skipped, reason: 'replay-cap' }
        : undefined,
    );
  }

  close(client: SseClient): void {
    const feed = this.feeds.get(client.clusterId);
    if (!feed?.clients.delete(client)) return;
    this.metrics.clients(--this.count);
    if (feed.clients.size > 0) return;
    for (const unsubscribe of feed.unsubscribe) unsubscribe();
    this.feeds.delete(client.clusterId);
  }

  ping(): void {
    for (const client of this.clients()) client.ping();
  }

  /** Cuts off every client whose backlog outlasted its bound. */
  checkLag(): void {
    for (const client of this.clients()) client.checkLag();
  }

  private clients(): SseClient[] {
    return [...this.feeds.values()].flatMap((feed) => [...feed.clients]);
  }

  /** Ends every stream (shutdown), so browsers reconnect to another replica at once. */
  closeAll(): void {
    for (const client of this.clients()) client.close();
  }

  /** Clusters with a shared subscription now (for tests and metrics). */
  subscribedClusters(): string[] {
    return [...this.feeds.keys()];
  }

  /** Tells every client of a removed cluster, then ends their streams. */
  clusterRemoved(clusterId: string): void {
    const feed = this.feeds.get(clusterId);
    if (!feed) return;
    const frame = clusterRemovedFrame({ clusterId, ts: new Date().toISOString() });
    for (const client of [...feed.clients]) {
      client.clusterRemoved(frame);
      this.close(client);
    }
  }

  private feed(clusterId: string): ClusterFeed {
    const existing = this.feeds.get(clusterId);
    if (existing) return existing;
    const clients = new Set<SseClient>();
    const unsubscribe = [
      // Each frame is serialised once for all the cluster's clients, not once per client.
      this.bus.subscribe(channels.signal, subjectPatterns.signal(clusterId), (signal) => {
        const frame = signalFrame(signal);
        for (const client of clients) client.signal(signal, frame);
      }),
      this.bus.subscribe(channels.eventStored, subjects.eventStored(clusterId), (event) => {
        const frame = eventFrame(event);
        for (const client of clients) client.event(event, frame);
      }),
      this.bus.subscribe(channels.clusterChange, subjects.clusterChange(clusterId), (change) => {
        if (change.change === 'removed') this.clusterRemoved(clusterId);
      }),
    ];
    const feed: ClusterFeed = { clients, unsubscribe, subscribed: this.bus.flush() };
    this.feeds.set(clusterId, feed);
    return feed;
  }
}
