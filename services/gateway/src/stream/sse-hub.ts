import type { Bus, Unsubscribe } from '@artemis-studio/bus';
import { channels, subjectPatterns, subjects, type BrokerEvent } from '@artemis-studio/contracts';
import { eventFrame, signalFrame, type SseClient } from './sse-client';

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
    private readonly replay: (clusterId: string, afterSeq: number) => Promise<BrokerEvent[]>,
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
    try {
      const replayed = await this.replay(client.clusterId, lastEventId);
      this.metrics.replayed(replayed.length);
      client.finishReplay(replayed);
    } catch {
      // No history to replay from (event store away): the client still goes live, and the
      // events view's own history query will show what it missed once the store is back.
      this.metrics.replayFailed();
      client.finishReplay([]);
    }
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
    ];
    const feed: ClusterFeed = { clients, unsubscribe, subscribed: this.bus.flush() };
    this.feeds.set(clusterId, feed);
    return feed;
  }
}
