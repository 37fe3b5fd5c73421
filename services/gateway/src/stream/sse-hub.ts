import type { Bus, Unsubscribe } from '@artemis-studio/bus';
import {
  SIGNAL_TOPICS,
  channels,
  subjectPatterns,
  subjects,
  type BrokerEvent,
  type ReplayGapFrame,
  type Signal,
  type StoredBrokerEvent,
} from '@artemis-studio/contracts';
import { sleep } from '@artemis-studio/timing';
import type { FeedHistory, HubMetrics, Replay } from './feed-history';
import { clusterRemovedFrame, eventFrame, signalFrame, type SseClient } from './sse-client';

const REPLAY_RETRY_MS = 1000;

interface ClusterFeed {
  clusterId: string;
  clients: Set<SseClient>;
  /** Resolves once the server has the subscriptions: a replay read after it cannot miss an event. */
  subscribed: Promise<void>;
  unsubscribe: Unsubscribe[];
  /** The newest seq this feed passed on; undefined until its first event. */
  lastSeq?: number;
  /**
   * The store's newest seq when the feed was placed (`place`): what its first event is checked
   * against. Only checked against, never used to leave an event out: a client without a
   * Last-Event-ID is sent an event committed before that read but published after it.
   */
  placedAt?: number;
  /** The read of the store's newest seq, while it is under way. */
  placing?: Promise<void>;
  /** Live events held while a hole before them is read from the store. */
  held?: StoredBrokerEvent[];
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
    private readonly history: FeedHistory,
    private readonly metrics: HubMetrics,
    /** How long a failed replay waits before it is asked once more. */
    private readonly retryMs = REPLAY_RETRY_MS,
  ) {}

  /**
   * A replay, asked once more after a failure before a client is told the history is unavailable:
   * an event store starting beside a backlog to drain (Studio back after an outage) failed the
   * first ask of each returning client while its pool was connecting, and every one of them lost
   * what it had missed from its stream.
   */
  private replay(clusterId: string, afterSeq: number, from: 'newest' | 'oldest'): Promise<Replay> {
    return this.twice(() => this.history.since(clusterId, afterSeq, from));
  }

  private async twice<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch {
      await sleep(this.retryMs);
      return read();
    }
  }

  /**
   * A new feed knows nothing of what its clients hold, so its first event would pass unchecked:
   * an event committed after a client's replay read and lost on the bus (the event store killed,
   * NATS restarted) left that client a hole it was never told of (the likely cause of one such
   * hole in the fault suite's random round, where gateways restart). Before a client replays on
   * a new feed, the feed reads the store's newest seq and checks its first event against it.
   * Replays wait for that read: a replay read before it could lack an event at or below that seq,
   * lost on the bus, which the check would then not see. Once an event has passed, the feed
   * checks against that. Fails when the store could not be read; the next client to replay asks
   * again (ADR-0007).
   */
  private place(feed: ClusterFeed): Promise<void> {
    if (feed.lastSeq !== undefined || feed.placedAt !== undefined) return Promise.resolve();
    feed.placing ??= this.twice(() => this.history.newestSeq(feed.clusterId))
      .then((newest) => {
        feed.placedAt = newest;
      })
      .finally(() => (feed.placing = undefined));
    return feed.placing;
  }

  /**
   * Adds a client once the live subscription is in place, so nothing published after it returns
   * is missed. With a Last-Event-ID the replay is read after that (and, on a new feed, after
   * `place`), and the client holds live events until the replay is sent: nothing falls in between.
   */
  async open(client: SseClient): Promise<void> {
    const lastEventId = client.resumeAfter;
    const feed = this.feed(client.clusterId);
    feed.clients.add(client);
    this.metrics.clients(++this.count);
    await feed.subscribed;
    if (lastEventId === undefined || !client.wantsEvents) return client.finishReplay([]);
    let replay: Replay;
    try {
      await this.place(feed);
      replay = await this.replay(client.clusterId, lastEventId, 'newest');
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

  /**
   * The bus came back after an outage: every signal published meanwhile was lost to this replica,
   * and a live client would show what it read before until the next change, unaware (ADR-0018's
   * floor polls only while a stream is down). Each client is told every topic it holds changed,
   * so its screen reads everything once. A missed event is read back by the next one (`stored`).
   */
  resync(): void {
    const ts = new Date().toISOString();
    for (const feed of this.feeds.values())
      for (const topic of SIGNAL_TOPICS) signalAll(feed.clients, { topic, clusterId: feed.clusterId, ts });
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
      this.bus.subscribe(channels.signal, subjectPatterns.signal(clusterId), (signal) =>
        signalAll(clients, signal),
      ),
      this.bus.subscribe(channels.eventStored, subjects.eventStored(clusterId), (event) => {
        const feed = this.feeds.get(clusterId);
        if (feed) this.stored(feed, event);
      }),
      this.bus.subscribe(channels.clusterChange, subjects.clusterChange(clusterId), (change) => {
        if (change.change === 'removed') this.clusterRemoved(clusterId);
      }),
    ];
    const feed: ClusterFeed = { clusterId, clients, unsubscribe, subscribed: this.bus.flush() };
    this.feeds.set(clusterId, feed);
    return feed;
  }

  /**
   * A stored event off the bus. `event.stored` is a plain NATS publish: one the event store made
   * between its commit and its death, or while NATS restarted, never arrives, and without a check
   * every client would go on with a hole it was never told of (the fault suite found this). Each
   * event names its cluster's previous seq; when that is above the last one the feed passed on, the
   * feed holds live events, reads the hole from the store, and sends both in order.
   */
  private stored(feed: ClusterFeed, event: StoredBrokerEvent): void {
    if (feed.held) {
      feed.held.push(event);
      return;
    }
    const checkedFrom = feed.lastSeq ?? feed.placedAt;
    if (event.prevSeq !== undefined && checkedFrom !== undefined && event.prevSeq > checkedFrom) {
      feed.held = [event];
      void this.repair(feed, checkedFrom);
      return;
    }
    this.pass(feed, event);
  }

  private pass(feed: ClusterFeed, stored: StoredBrokerEvent): void {
    if (feed.lastSeq !== undefined && stored.seq <= feed.lastSeq) return;
    feed.lastSeq = stored.seq;
    const { prevSeq: _prevSeq, ...event } = stored;
    // Each frame is serialised once for all the cluster's clients, not once per client.
    const frame = eventFrame(event);
    for (const client of feed.clients) client.event(event, frame);
  }

  private async repair(feed: ClusterFeed, afterSeq: number): Promise<void> {
    let gap: Omit<ReplayGapFrame, 'clusterId' | 'lastEventId'> | undefined;
    let replayed: BrokerEvent[] = [];
    try {
      // Oldest first: the store may already hold many events after the hole (a restarted writer
      // catching up), and the newest of them would leave the hole itself out.
      replayed = [...(await this.replay(feed.clusterId, afterSeq, 'oldest')).events].sort(
        (a, b) => a.seq - b.seq,
      );
    } catch {
      gap = { replayFrom: null, missed: null, reason: 'history-unavailable' };
    }
    const held = feed.held ?? [];
    feed.held = undefined;
    const [first] = held;
    if (!first) return;
    const hole = first.prevSeq ?? 0;
    const before = replayed.filter((e) => e.seq < first.seq);
    const reached = Math.max(afterSeq, feed.lastSeq ?? 0, before.at(-1)?.seq ?? 0);
    // Read, but not all of it: the hole was longer than the replay cap.
    if (!gap && reached < hole) gap = { replayFrom: first.seq, missed: null, reason: 'replay-cap' };
    for (const event of before) this.pass(feed, event);
    this.metrics.repaired(before.length);
    if (gap) {
      // Announced where it is, after what could be read; the feed goes on past it, never back.
      this.metrics.repairFailed();
      for (const client of feed.clients) client.gap(gap);
      feed.lastSeq = Math.max(feed.lastSeq ?? 0, hole);
    }
    const after = [...replayed.filter((e) => e.seq >= first.seq), ...held].sort((a, b) => a.seq - b.seq);
    // Through stored(), not straight out: a held event may name a second hole after this one.
    for (const event of after) this.stored(feed, event);
  }
}

/** One signal to every client of a cluster, serialised once for all of them. */
function signalAll(clients: Iterable<SseClient>, signal: Signal): void {
  const frame = signalFrame(signal);
  for (const client of clients) client.signal(signal, frame);
}
