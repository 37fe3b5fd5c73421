import type { BrokerEvent, ReplayGapFrame } from '@artemis-studio/contracts';
import type { StreamListener } from '../stream/cluster-stream';

/** Live events kept in memory by a screen; older ones are in the history. */
const LIVE_EVENTS_CAP = 1000;

/** A replay gap the stream announced, dated from the newest event heard before it. */
export interface LiveGap {
  frame: ReplayGapFrame;
  from: string | null;
  to: string;
}

export interface LiveEventsSnapshot {
  /** Newest first, one per seq, at most the cap. */
  readonly events: readonly BrokerEvent[];
  /** Newest first. */
  readonly gaps: readonly LiveGap[];
  /** Events that arrived while paused and wait for Resume (at most the cap). */
  readonly held: number;
}

/** What the feed needs of the pause (ADR-0052): whether it is on, and being told when it ends. */
export interface PauseLike {
  isPaused(): boolean;
  onResume(handler: () => void): () => void;
}

/** Two newest-first lists as one: one row per seq (the first list's copy wins), at most `cap` rows. */
export function mergeFeed(
  a: readonly BrokerEvent[],
  b: readonly BrokerEvent[],
  cap = Infinity,
): BrokerEvent[] {
  const bySeq = new Map<number, BrokerEvent>();
  for (const event of a) bySeq.set(event.seq, event);
  for (const event of b) if (!bySeq.has(event.seq)) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((x, y) => y.seq - x.seq).slice(0, cap);
}

type Listener = () => void;

/**
 * The broker events a screen has heard live, for it to set on top of its history. While the
 * console is paused nothing moves: events are held, and come in together when it resumes (the
 * freshness rules, ADR-0052). Framework-free, so the hold-and-release is tested without React.
 */
export class LiveEventFeed {
  private snapshot: LiveEventsSnapshot = { events: [], gaps: [], held: 0 };
  private heldEvents: BrokerEvent[] = [];
  private newest: BrokerEvent | null = null;
  private accept: (event: BrokerEvent) => boolean = () => true;
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly pause: PauseLike,
    private readonly cap = LIVE_EVENTS_CAP,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The stream frames this feed takes; hand it to the cluster stream. */
  readonly listener: StreamListener = {
    event: (event) => this.receive(event),
    gap: (frame) => this.gap(frame),
  };

  /** Which events the screen shows; a new choice starts the live part afresh (the history answers for it). */
  select(accept: (event: BrokerEvent) => boolean): void {
    this.accept = accept;
    this.heldEvents = [];
    if (this.snapshot.events.length || this.snapshot.held)
      this.set({ ...this.snapshot, events: [], held: 0 });
  }

  receive(event: BrokerEvent): void {
    if (!this.newest || event.seq > this.newest.seq) this.newest = event;
    if (!this.accept(event)) return;
    if (this.pause.isPaused()) {
      // Bounded like the feed itself: what falls out is older than what the feed would keep.
      this.heldEvents = mergeFeed([event], this.heldEvents, this.cap);
      this.set({ ...this.snapshot, held: this.heldEvents.length });
      return;
    }
    this.set({ ...this.snapshot, events: mergeFeed([event], this.snapshot.events, this.cap) });
  }

  gap(frame: ReplayGapFrame): void {
    const from = this.newest?.brokerTs ?? this.newest?.receivedAt ?? null;
    const gap: LiveGap = { frame, from, to: this.now().toISOString() };
    this.set({ ...this.snapshot, gaps: [gap, ...this.snapshot.gaps] });
  }

  /** The pause ended: what was held comes in. */
  release(): void {
    if (this.heldEvents.length === 0) return;
    const events = mergeFeed(this.heldEvents, this.snapshot.events, this.cap);
    this.heldEvents = [];
    this.set({ ...this.snapshot, events, held: 0 });
  }

  /** Releases the held events whenever the pause ends; returns the unsubscribe. */
  followPause(): () => void {
    return this.pause.onResume(() => this.release());
  }

  get = (): LiveEventsSnapshot => this.snapshot;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(snapshot: LiveEventsSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of [...this.listeners]) listener();
  }
}
