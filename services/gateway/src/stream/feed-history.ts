import type { BrokerEvent } from '@artemis-studio/contracts';

/* What the SSE hub reads from the event store, and what it counts (sse-hub.ts). */

/** A Last-Event-ID replay: the newest events after the cursor, and how many older ones the cap left out. */
export interface Replay {
  events: BrokerEvent[];
  skipped?: number;
}

/**
 * The events after `afterSeq`, at most the replay cap: the newest of them for a client's
 * Last-Event-ID (ADR-0027), the oldest to fill a hole in a feed (the hole is right after it).
 */
export type ReplayRead = (clusterId: string, afterSeq: number, from: 'newest' | 'oldest') => Promise<Replay>;

/** What the hub reads from the event store. */
export interface FeedHistory {
  since: ReplayRead;
  /** The cluster's newest stored seq (0 when none): where a new feed starts checking for holes. */
  newestSeq(clusterId: string): Promise<number>;
}

export interface HubMetrics {
  clients(count: number): void;
  replayed(count: number): void;
  replayFailed(): void;
  /** Events a feed missed on the bus and read from the store instead. */
  repaired(count: number): void;
  /** Holes in a feed that could not be read back: its clients were told of a gap. */
  repairFailed(): void;
}
