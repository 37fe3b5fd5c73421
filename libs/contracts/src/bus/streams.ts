import { EVENTS_STREAM, EVENTS_STREAM_CONSUMER, subjectPatterns } from '../subjects';

/** A durable, explicitly acknowledged consumer of a stream, shared by every replica naming it. */
export interface ConsumerDef {
  readonly durable: string;
  /** Narrows the stream to some of its subjects; defaults to the consuming channel's pattern. */
  readonly filterSubject?: string;
  /** How many deliveries may be unacknowledged at once: the bound on what is in flight. */
  readonly maxAckPending: number;
  /** How long a delivered message may stay unacknowledged before it is redelivered. */
  readonly ackWaitMs: number;
}

/** How much a stream holds; a deployment may lower or raise them (NatsBusOptions.streamLimits). */
export interface StreamLimits {
  readonly maxBytes: number;
  /** -1: no limit but the bytes. */
  readonly maxMsgs: number;
  /** 0: kept until consumed (interest retention) or the limits say otherwise. */
  readonly maxAgeMs: number;
  /** Publishes with the same message id within this window are stored once. */
  readonly duplicateWindowMs: number;
}

/**
 * A JetStream stream as declared values: the bus creates it, or updates it to this, the first time
 * a service publishes to or consumes from it, so whichever service starts first, it exists.
 */
export interface StreamDef {
  readonly name: string;
  readonly subjects: readonly string[];
  /** interest: a message leaves once every consumer acknowledged it; limits: when a limit says. */
  readonly retention: 'interest' | 'limits';
  /** new: a full stream refuses new messages (the publisher keeps and counts them); old: it drops its oldest. */
  readonly discard: 'new' | 'old';
  readonly limits: StreamLimits;
  /**
   * Consumers created with the stream: under interest retention, a message published before its
   * consumer exists is gone, so the consumer must exist before the first message does.
   */
  readonly consumers: readonly ConsumerDef[];
}

/** The event store's consumer of STUDIO_EVENTS: 60 s to commit a delivery before it is redelivered. */
export const EVENT_STORE_CONSUMER: ConsumerDef = {
  durable: EVENTS_STREAM_CONSUMER,
  filterSubject: subjectPatterns.eventRaw(),
  maxAckPending: 10_000,
  ackWaitMs: 60_000,
};

export const streams = {
  /**
   * Every cluster's raw broker events, from the notifier to the event store. Interest and
   * discard-new: an event leaves once stored, and a full stream refuses new events (the notifier
   * keeps and counts them) instead of silently discarding old ones whose cluster nobody could
   * name any more.
   */
  events: {
    name: EVENTS_STREAM,
    subjects: [subjectPatterns.eventRaw()],
    retention: 'interest',
    discard: 'new',
    limits: { maxBytes: 1024 * 1024 * 1024, maxMsgs: -1, maxAgeMs: 0, duplicateWindowMs: 120_000 },
    consumers: [EVENT_STORE_CONSUMER],
  },
} as const satisfies Record<string, StreamDef>;
