import {
  STREAM_FRAMES,
  type BrokerEvent,
  type ClusterRemovedFrame,
  type ReplayGapFrame,
  type Signal,
  type Topic,
} from '@artemis-studio/contracts';

/** Where a client's frames go: an HTTP response in the gateway, a buffer in tests. */
export interface StreamSink {
  write(chunk: string | Uint8Array): boolean;
  readonly writableLength: number;
  end(): void;
}

export interface ClientHooks {
  /** The client fell behind its send bound and was cut off (it reconnects and replays). */
  slow(client: SseClient): void;
  frame(): void;
}

/** Frames are encoded once: a signal to 10,000 clients is one buffer written 10,000 times. */
export const signalFrame = (signal: Signal): Uint8Array =>
  Buffer.from(`event: ${signal.topic}\ndata: ${JSON.stringify(signal)}\n\n`);

export const eventFrame = (event: BrokerEvent): Uint8Array =>
  Buffer.from(`id: ${event.seq}\nevent: events\ndata: ${JSON.stringify(event)}\n\n`);

export const clusterRemovedFrame = (removed: ClusterRemovedFrame): Uint8Array =>
  Buffer.from(`event: ${STREAM_FRAMES.clusterRemoved}\ndata: ${JSON.stringify(removed)}\n\n`);

const replayGapFrame = (gap: ReplayGapFrame): string =>
  `event: ${STREAM_FRAMES.replayGap}\ndata: ${JSON.stringify(gap)}\n\n`;

/** Live events a client may accumulate while its replay is being read. */
const MAX_HELD_DURING_REPLAY = 5000;
/** Unsent bytes above this count as a backlog; below it the client is keeping up. */
const LOW_WATER_BYTES = 64 * 1024;

export interface SendBounds {
  /** Unsent bytes past which a client is cut off at once. */
  maxBufferedBytes: number;
  /** How long a backlog may last before the client is cut off as too slow. */
  maxLagMs: number;
}

/**
 * One browser's stream. Frames are written as they come. A client is slow when its backlog of
 * unsent bytes lasts longer than `maxLagMs`, or passes `maxBufferedBytes`: it is cut off (and
 * reconnects with its Last-Event-ID) rather than let grow the gateway's memory or slow anyone
 * else. Judged by time, not by size alone: a replay burst larger than a size bound would cut a
 * client on a slow link off again at every reconnect. Events carry `id: <seq>`; an event at or below the last id sent is never sent
 * again, which makes the seam between replay and live free of duplicates.
 */
export class SseClient {
  private lastSeq: number;
  private replaying = true;
  private held: BrokerEvent[] = [];
  private closed = false;
  private backlogSince: number | undefined;

  constructor(
    readonly clusterId: string,
    readonly topics: ReadonlySet<Topic>,
    private readonly sink: StreamSink,
    /** The client's Last-Event-ID: it is sent what came after it first, then live (ADR-0027). */
    readonly resumeAfter: number | undefined,
    private readonly bounds: SendBounds,
    private readonly hooks: ClientHooks,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSeq = resumeAfter ?? 0;
  }

  get wantsEvents(): boolean {
    return this.topics.has('events');
  }

  /** `frame` is `signalFrame(signal)`, passed in when the same signal goes to many clients. */
  signal(signal: Signal, frame = signalFrame(signal)): void {
    if (this.topics.has(signal.topic)) this.write(frame);
  }

  /** `frame` is `eventFrame(event)`, passed in when the same event goes to many clients. */
  event(event: BrokerEvent, frame?: Uint8Array): void {
    if (!this.wantsEvents) return;
    if (this.replaying) {
      this.held.push(event);
      if (this.held.length > MAX_HELD_DURING_REPLAY) this.cutOff();
      return;
    }
    this.emit(event, frame);
  }

  /**
   * Sends the replayed events, then what arrived live meanwhile, then goes live: no duplicate, and
   * no gap that is not announced first (`gap`, when the replay could not cover everything missed).
   */
  finishReplay(replayed: BrokerEvent[], gap?: Omit<ReplayGapFrame, 'clusterId' | 'lastEventId'>): void {
    if (gap) this.write(replayGapFrame({ clusterId: this.clusterId, lastEventId: this.lastSeq, ...gap }));
    for (const event of replayed) this.emit(event);
    for (const event of this.held.sort((a, b) => a.seq - b.seq)) this.emit(event);
    this.held = [];
    this.replaying = false;
  }

  /** Tells the client that live events it should have had could not be sent (a hole in the feed). */
  gap(gap: Omit<ReplayGapFrame, 'clusterId' | 'lastEventId'>): void {
    if (this.wantsEvents)
      this.write(replayGapFrame({ clusterId: this.clusterId, lastEventId: this.lastSeq, ...gap }));
  }

  /** Judges the backlog even when nothing new is written (a stalled client with a full buffer). */
  checkLag(): void {
    if (!this.closed && this.tooSlow()) this.cutOff();
  }

  ping(): void {
    this.write(`event: ${STREAM_FRAMES.ping}\ndata: {"ts":"${new Date().toISOString()}"}\n\n`);
  }

  /** The cluster is gone: says so, then ends the stream (`frame` is `clusterRemovedFrame(…)`). */
  clusterRemoved(frame: Uint8Array): void {
    this.write(frame);
    this.close();
  }

  /** Ends the stream cleanly (shutdown): the browser reconnects, to another replica. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.sink.end();
  }

  private emit(event: BrokerEvent, frame = eventFrame(event)): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    this.write(frame);
  }

  private write(frame: string | Uint8Array): void {
    if (this.closed) return;
    if (this.tooSlow()) return this.cutOff();
    this.sink.write(frame);
    this.hooks.frame();
  }

  private tooSlow(): boolean {
    const unsent = this.sink.writableLength;
    if (unsent > this.bounds.maxBufferedBytes) return true;
    if (unsent <= LOW_WATER_BYTES) {
      this.backlogSince = undefined;
      return false;
    }
    this.backlogSince ??= this.now();
    return this.now() - this.backlogSince > this.bounds.maxLagMs;
  }

  private cutOff(): void {
    if (this.closed) return;
    this.close();
    this.hooks.slow(this);
  }
}
