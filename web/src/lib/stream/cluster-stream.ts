import {
  BrokerEventSchema,
  ClusterRemovedFrameSchema,
  ReplayGapFrameSchema,
  SIGNAL_TOPICS,
  STREAM_FRAMES,
  SignalSchema,
  type BrokerEvent,
  type ClusterRemovedFrame,
  type ReplayGapFrame,
  type Signal,
  type Topic,
} from '@artemis-studio/contracts';
import { reconnectDelay } from './backoff';
import { browserTimers, Watchdog, type Timers } from './watchdog';

/** What the stream needs of the browser's EventSource, so tests can drive one by hand. */
export interface EventSourceLike {
  onopen: ((ev: Event) => void) | null;
  onerror: ((ev: Event) => void) | null;
  addEventListener(type: string, listener: (ev: MessageEvent<string>) => void): void;
  close(): void;
}
export type EventSourceFactory = (url: string) => EventSourceLike;

/**
 * `connecting`: the first attempt; `live`: open and heard from within the watchdog window;
 * `reconnecting`: down, the next attempt scheduled; `removed`: the cluster is gone, never retried;
 * `stopped`: no view holds it.
 */
export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'removed' | 'stopped';

export interface StreamStatus {
  readonly state: StreamState;
  /** When a frame last arrived, as of the last change of status (`ClusterStream.lastFrameAt` is current). */
  readonly lastFrameAt: number | null;
  /** When the stream went down, while it is down. */
  readonly downSince: number | null;
  readonly nextAttemptAt: number | null;
  /** Why it last went down. */
  readonly lastFailure: string | null;
  /** The last replay that left a gap, with when it was announced. */
  readonly lastGap: (ReplayGapFrame & { at: number }) | null;
  /** Frames that did not match their contract schema, skipped. */
  readonly malformedFrames: number;
}

export interface StreamListener {
  signal?(signal: Signal): void;
  event?(event: BrokerEvent): void;
  gap?(gap: ReplayGapFrame): void;
  removed?(frame: ClusterRemovedFrame): void;
  status?(status: StreamStatus): void;
}

export interface ClusterStreamOptions {
  createEventSource?: EventSourceFactory;
  /** The silence after which the stream counts as dead; read at every reset, so a settings change applies. */
  watchdogMs: () => number;
  timers?: Timers;
  now?: () => number;
  random?: () => number;
}

/**
 * One cluster's live stream (ADR-0052, ADR-0027), framework-free. Reconnects forever with capped,
 * jittered backoff; treats silence longer than the watchdog window as failure; resumes after the
 * last event it saw (`lastEventId`), since a stream it opens itself cannot set Last-Event-ID.
 */
export class ClusterStream {
  private source: EventSourceLike | null = null;
  private attempt = 0;
  private retryHandle: unknown;
  private lastEventId: number | null = null;
  private lastFrame: number | null = null;
  private readonly listeners = new Set<StreamListener>();
  private readonly watchdog: Watchdog;
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly createEventSource: EventSourceFactory;
  private current: StreamStatus = {
    state: 'stopped',
    lastFrameAt: null,
    downSince: null,
    nextAttemptAt: null,
    lastFailure: null,
    lastGap: null,
    malformedFrames: 0,
  };

  constructor(
    readonly clusterId: string,
    private topics: readonly Topic[],
    private readonly options: ClusterStreamOptions,
  ) {
    this.timers = options.timers ?? browserTimers;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.createEventSource = options.createEventSource ?? ((url) => new EventSource(url));
    this.watchdog = new Watchdog(
      options.watchdogMs,
      () => this.fail(`nothing heard for ${Math.round(options.watchdogMs() / 1000)} s`),
      this.timers,
    );
  }

  get status(): StreamStatus {
    return this.current;
  }

  /** When any frame, a ping included, last arrived. */
  get lastFrameAt(): number | null {
    return this.lastFrame;
  }

  get streamTopics(): readonly Topic[] {
    return this.topics;
  }

  listen(listener: StreamListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.current.state !== 'stopped') return;
    this.update({ state: 'connecting' });
    this.connect();
  }

  stop(): void {
    this.teardown();
    this.update({ state: 'stopped', nextAttemptAt: null });
  }

  /** The browser came back online or the tab woke: try now rather than at the scheduled time. */
  reconnectNow(): void {
    const { state } = this.current;
    const lastFrameAt = this.lastFrame;
    if (state === 'reconnecting') {
      this.teardown();
      this.connect();
    } else if (
      state === 'live' &&
      lastFrameAt !== null &&
      this.now() - lastFrameAt > this.options.watchdogMs()
    ) {
      // Timers are frozen in a sleeping tab: the watchdog may not have fired yet.
      this.fail('silent while the tab slept');
    }
  }

  /** Reopens with these topics when they differ, resuming after the last event seen. */
  setTopics(topics: readonly Topic[]): void {
    const same = topics.length === this.topics.length && topics.every((t) => this.topics.includes(t));
    if (same) return;
    this.topics = topics;
    if (this.current.state === 'stopped' || this.current.state === 'removed') return;
    this.teardown();
    this.connect();
  }

  private url(): string {
    const params = new URLSearchParams({ clusterId: this.clusterId, topics: this.topics.join(',') });
    if (this.lastEventId !== null) params.set('lastEventId', String(this.lastEventId));
    return `/api/v1/stream?${params.toString()}`;
  }

  private connect(): void {
    const source = this.createEventSource(this.url());
    this.source = source;
    this.watchdog.reset();
    source.onopen = () => {
      if (this.source !== source) return;
      this.attempt = 0;
      this.heard({ state: 'live', downSince: null, nextAttemptAt: null });
    };
    source.onerror = () => {
      if (this.source === source) this.fail('the connection to the gateway failed');
    };
    for (const topic of SIGNAL_TOPICS)
      this.on(source, topic, SignalSchema, (signal) => this.emit((l) => l.signal?.(signal)));
    this.on(source, 'events', BrokerEventSchema, (event) => {
      this.lastEventId = Math.max(this.lastEventId ?? 0, event.seq);
      this.emit((l) => l.event?.(event));
    });
    this.on(source, STREAM_FRAMES.ping, null, () => undefined);
    this.on(source, STREAM_FRAMES.replayGap, ReplayGapFrameSchema, (gap) => {
      this.update({ lastGap: { ...gap, at: this.now() } });
      this.emit((l) => l.gap?.(gap));
    });
    this.on(source, STREAM_FRAMES.clusterRemoved, ClusterRemovedFrameSchema, (removed) => {
      this.teardown();
      this.update({ state: 'removed', nextAttemptAt: null });
      this.emit((l) => l.removed?.(removed));
    });
  }

  /** Every frame of the current source proves it alive; one that breaks its schema is counted and skipped. */
  private on<T>(
    source: EventSourceLike,
    name: string,
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } } | null,
    handle: (payload: T) => void,
  ): void {
    source.addEventListener(name, (message) => {
      if (this.source !== source) return;
      this.heard(
        this.current.state === 'live' ? {} : { state: 'live', downSince: null, nextAttemptAt: null },
      );
      if (!schema) return handle(undefined as T);
      let parsed: ReturnType<typeof schema.safeParse>;
      try {
        parsed = schema.safeParse(JSON.parse(message.data));
      } catch {
        parsed = { success: false };
      }
      if (parsed.success) handle(parsed.data);
      else this.update({ malformedFrames: this.current.malformedFrames + 1 });
    });
  }

  private heard(change: Partial<StreamStatus>): void {
    this.watchdog.reset();
    this.lastFrame = this.now();
    // A frame on a live stream leaves the status as it is: a busy events feed would otherwise
    // re-render everything that watches it once per event.
    if (Object.keys(change).length > 0) this.update({ ...change, lastFrameAt: this.lastFrame });
  }

  private fail(reason: string): void {
    const { state } = this.current;
    if (state === 'removed' || state === 'stopped') return;
    this.teardown();
    const delay = reconnectDelay(this.attempt++, this.random);
    this.retryHandle = this.timers.setTimeout(() => {
      this.retryHandle = undefined;
      this.connect();
    }, delay);
    this.update({
      state: 'reconnecting',
      downSince: this.current.downSince ?? this.now(),
      nextAttemptAt: this.now() + delay,
      lastFailure: reason,
    });
  }

  private teardown(): void {
    this.watchdog.stop();
    if (this.retryHandle !== undefined) this.timers.clearTimeout(this.retryHandle);
    this.retryHandle = undefined;
    const source = this.source;
    this.source = null;
    if (source) {
      source.onopen = null;
      source.onerror = null;
      source.close();
    }
  }

  private update(change: Partial<StreamStatus>): void {
    this.current = { ...this.current, ...change };
    const status = this.current;
    this.emit((l) => l.status?.(status));
  }

  private emit(call: (listener: StreamListener) => void): void {
    for (const listener of [...this.listeners]) call(listener);
  }
}
