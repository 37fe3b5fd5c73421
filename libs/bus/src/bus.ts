import type {
  BucketDef,
  Channel,
  ConsumerDef,
  PayloadOf,
  ReplyOf,
  RequestOf,
  RpcDef,
  ValueOf,
} from '@artemis-studio/contracts';

/**
 * What services may do with the bus. Deliberately narrow: everything crosses it as a contract
 * channel, RPC or bucket from `@artemis-studio/contracts`, validated on receipt, so an in-process
 * adapter can stand in for NATS in a one-process mode without touching a service.
 */
export interface Bus {
  readonly state: BusState;
  /** Resolves once the first connection is up; operations issued before it wait or are queued. */
  ready(): Promise<void>;

  /**
   * Fire-and-forget on core NATS, checked against the channel's schema first. Returns false when
   * the message could not be handed to the client (counted).
   */
  publish<C extends Channel>(channel: C, subject: string, payload: PayloadOf<C>): boolean;
  /**
   * `publish` of a body already encoded, unchecked. Only for a body built from a message this
   * process validated on receipt (the event store's `event.stored`: the raw event's JSON as received
   * plus its seq), where parsing, checking and encoding it again would cost more than the rest of
   * the publish. Receivers validate either way. `json` as text or as its UTF-8 bytes.
   */
  publishJson<C extends Channel>(channel: C, subject: string, json: string | Uint8Array): boolean;
  /** Receives every valid message on `subject` (wildcards allowed); malformed ones are counted and skipped. */
  subscribe<C extends Channel>(
    channel: C,
    subject: string,
    handler: (payload: PayloadOf<C>, subject: string) => void | Promise<void>,
    options?: { queue?: string },
  ): Unsubscribe;

  /** `key` addresses one instance of a keyed RPC (`studio.v1.rpc.<name>.<key>`), such as a cluster's owner. */
  request<R extends RpcDef>(
    rpc: R,
    request: RequestOf<R>,
    options?: { timeoutMs?: number; key?: string },
  ): Promise<ReplyOf<R>>;
  /**
   * Serves an RPC in this service's queue group; a thrown RpcError keeps its code, anything else is
   * a 500. Each reply is checked against the contract before it is sent, unless `checkReply` is
   * false: for a handler that builds every field of a large reply itself, which the requester
   * checks on receipt all the same.
   */
  serve<R extends RpcDef>(
    rpc: R,
    handler: (request: RequestOf<R>) => Promise<ReplyOf<R>>,
    options?: { key?: string; checkReply?: boolean },
  ): Unsubscribe;
  /**
   * Serves every RPC of a keyed table for one key (a cluster this replica owns), as one service
   * instance: all of them answer from here until the returned call lets the key go.
   */
  serveKeyed<T extends Record<string, RpcDef>>(table: T, handlers: HandlersOf<T>, key: string): Unsubscribe;

  /** Publishes to the JetStream stream that captures `channel`; `msgId` makes a retry a discarded duplicate. */
  publishDurable<C extends Channel>(
    channel: C,
    subject: string,
    payload: PayloadOf<C>,
    options: { msgId: string; timeoutMs?: number },
  ): Promise<{ seq: number; duplicate: boolean }>;
  /**
   * `publishDurable` of a body already encoded, unchecked: only for a body checked against the
   * channel's schema where it entered Studio (the notifier's broker events). Receivers validate
   * either way.
   */
  publishDurableJson<C extends Channel>(
    channel: C,
    subject: string,
    json: string,
    options: { msgId: string; timeoutMs?: number },
  ): Promise<{ seq: number; duplicate: boolean }>;
  /**
   * A durable, explicitly acknowledged consumer shared by every replica that names the same
   * `durable`. Delivery is not awaited: the handler acks when its work is committed, and
   * `maxAckPending` bounds what is in flight.
   */
  consume<C extends Channel>(
    channel: C,
    options: DurableConsumerOptions,
    handler: (payload: PayloadOf<C>, delivery: Delivery) => void,
  ): Stoppable;

  kv<B extends BucketDef>(bucket: B): Promise<TypedKv<ValueOf<B>>>;
  /** Resolves once the server has processed everything sent so far (subscriptions included). */
  flush(): Promise<void>;
  /**
   * Called each time the connection to NATS comes back after it was lost: core messages published
   * meanwhile never reached this process's subscriptions (JetStream consumers resume by themselves).
   */
  onReconnect(listener: () => void): Unsubscribe;
  close(): Promise<void>;
}

export type BusState = 'connecting' | 'connected' | 'reconnecting' | 'closed';
export type Unsubscribe = () => void;
export interface Stoppable {
  stop(): Promise<void>;
}

/** A consumer as declared in the contracts (ConsumerDef), or an ad-hoc one with the defaults filled in. */
export type DurableConsumerOptions = Pick<ConsumerDef, 'durable'> & Partial<ConsumerDef>;

export interface Delivery {
  readonly subject: string;
  /** The body as received: the JSON text the payload was validated from. */
  readonly json: string;
  /** The same body as the bytes it came in (held anyway, with the message to acknowledge). */
  readonly data: Uint8Array;
  /** The stream sequence of this message. */
  readonly streamSeq: number;
  /** How many times the stream has delivered this message: 1 the first time. */
  readonly deliveryCount: number;
  ack(): void;
  /** Redeliver later (after `delayMs`). */
  nak(delayMs?: number): void;
}

export interface KvEntry<V> {
  key: string;
  value: V;
  revision: number;
}

export interface TypedKv<V> {
  get(key: string): Promise<KvEntry<V> | null>;
  put(key: string, value: V): Promise<number>;
  /** Writes only if the key does not exist; resolves to null when it does. */
  create(key: string, value: V): Promise<number | null>;
  /** Writes only if the key is still at `revision`; resolves to null when it moved on. */
  update(key: string, value: V, revision: number): Promise<number | null>;
  delete(key: string): Promise<void>;
  keys(): Promise<string[]>;
  /** Current values first, then every change; a deleted or expired key arrives as null. */
  watch(handler: (key: string, value: V | null) => void): Stoppable;
}

/** An RPC failure, carried in NATS service error headers (ADR-32). */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the bus counts; the platform exposes it on /metrics. */
export interface BusMetrics {
  malformed(channel: string): void;
  handlerFailed(channel: string): void;
  publishDropped(channel: string): void;
  /** A durable consumer's pulls went unanswered and were counted gone (see pullMessages). */
  pullsGivenUp(consumer: string): void;
}

export const noopBusMetrics: BusMetrics = {
  malformed() {},
  handlerFailed() {},
  publishDropped() {},
  pullsGivenUp() {},
};

/** What answers each RPC of a table. */
export type HandlersOf<T extends Record<string, RpcDef>> = {
  [K in keyof T]: (request: RequestOf<T[K]>) => Promise<ReplyOf<T[K]>>;
};
