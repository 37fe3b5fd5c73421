import {
  BucketDef,
  Channel,
  EVENTS_STREAM,
  EVENTS_STREAM_CONSUMER,
  PayloadOf,
  ReplyOf,
  RequestOf,
  RpcDef,
  ValueOf,
  channels,
  subjects,
} from '@artemis-studio/contracts';
import { Backoff, sleep, withTimeout } from '@artemis-studio/timing';
import {
  AckPolicy,
  DebugEvents,
  DeliverPolicy,
  DiscardPolicy,
  Events,
  JetStreamManager,
  KV,
  NatsConnection,
  NatsError,
  RetentionPolicy,
  StorageType,
  connect,
  headers as natsHeaders,
  nanos,
} from 'nats';
import {
  Bus,
  BusMetrics,
  BusState,
  Delivery,
  DurableConsumerOptions,
  KvEntry,
  RpcError,
  Stoppable,
  TypedKv,
  Unsubscribe,
  noopBusMetrics,
} from './bus';
import { decode, encode } from './codec';

/** The longest `close` waits for a drain before it closes the connection outright. */
const DRAIN_TIMEOUT_MS = 5000;

export interface NatsBusOptions {
  servers: string | string[];
  /** Client name, shown by the server; also the default queue group for served RPCs. */
  name: string;
  metrics?: BusMetrics;
  log?: BusLog;
  requestTimeoutMs?: number;
  /** Limits of the STUDIO_EVENTS stream; past them the oldest messages are discarded (and counted by the event store). */
  eventsStream?: { maxAgeMs?: number; maxBytes?: number; maxMsgs?: number; duplicateWindowMs?: number };
}

export interface BusLog {
  warn(message: string): void;
  error(message: string): void;
}

const consoleLog: BusLog = { warn: (m) => console.warn(m), error: (m) => console.error(m) };

const ERROR_HEADER = 'Nats-Service-Error';
const ERROR_CODE_HEADER = 'Nats-Service-Error-Code';

/**
 * The bus over NATS. Connects in the background and reconnects forever, so a service boots and
 * reports "not ready" while NATS is away instead of crashing; `state` feeds readiness.
 */
export class NatsBus implements Bus {
  private connection?: NatsConnection;
  private readonly connected: Promise<NatsConnection>;
  private jsm?: Promise<JetStreamManager>;
  private streamReady?: Promise<void>;
  private currentState: BusState = 'connecting';
  private closeRequested = false;
  private readonly metrics: BusMetrics;
  private readonly log: BusLog;

  constructor(private readonly options: NatsBusOptions) {
    this.metrics = options.metrics ?? noopBusMetrics;
    this.log = options.log ?? consoleLog;
    this.connected = this.connectUntilClosed();
    // Rejects only when closed before the first connect, when nobody may be awaiting it yet.
    this.connected.catch(() => (this.currentState = 'closed'));
  }

  /**
   * Dials until the first connection is up; from then on the client reconnects by itself, forever.
   * Not the client's waitOnFirstConnect: that loop cannot be cancelled, so a service closed while
   * NATS is away would never exit.
   */
  private async connectUntilClosed(): Promise<NatsConnection> {
    const backoff = new Backoff({ minMs: 250, maxMs: 5000 });
    for (let attempt = 0; ; attempt++) {
      if (this.closeRequested) throw new Error('bus closed before it first connected');
      try {
        const nc = await connect({
          servers: this.options.servers,
          name: this.options.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
          reconnectJitter: 500,
          pingInterval: 10_000,
          maxPingOut: 2,
          timeout: 2000,
        });
        if (this.closeRequested) {
          await nc.close();
          throw new Error('bus closed before it first connected');
        }
        this.connection = nc;
        this.currentState = 'connected';
        void this.followStatus(nc);
        return nc;
      } catch (err) {
        if (this.closeRequested) throw err;
        if (attempt % 10 === 0)
          this.log.warn(`bus: NATS not reachable (${(err as Error).message}); retrying`);
        await sleep(backoff.next());
      }
    }
  }

  get state(): BusState {
    return this.currentState;
  }

  async ready(): Promise<void> {
    await this.connected;
  }

  private async followStatus(nc: NatsConnection): Promise<void> {
    void nc.closed().then(() => (this.currentState = 'closed'));
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect || status.type === DebugEvents.Reconnecting) {
        if (this.currentState !== 'closed') this.currentState = 'reconnecting';
      } else if (status.type === Events.Reconnect) {
        this.currentState = 'connected';
      }
    }
  }

  publish<C extends Channel>(channel: C, subject: string, payload: PayloadOf<C>): boolean {
    return this.publishData(channel, subject, encode(channel.schema, payload, channel.name));
  }

  publishJson<C extends Channel>(channel: C, subject: string, json: string): boolean {
    return this.publishData(channel, subject, json);
  }

  private publishData(channel: Channel, subject: string, data: Uint8Array | string): boolean {
    const nc = this.connection;
    if (!nc || nc.isClosed()) {
      this.metrics.publishDropped(channel.name);
      return false;
    }
    // While reconnecting the client buffers (reconnectBufSize); past that it throws, and we count.
    try {
      nc.publish(subject, data);
      return true;
    } catch (err) {
      this.metrics.publishDropped(channel.name);
      this.log.warn(`bus: could not publish ${channel.name} on ${subject}: ${(err as Error).message}`);
      return false;
    }
  }

  subscribe<C extends Channel>(
    channel: C,
    subject: string,
    handler: (payload: PayloadOf<C>, subject: string) => void | Promise<void>,
    options: { queue?: string } = {},
  ): Unsubscribe {
    let cancelled = false;
    let unsubscribe: Unsubscribe = () => (cancelled = true);
    void this.connected.then((nc) => {
      if (cancelled) return;
      const sub = nc.subscribe(subject, {
        queue: options.queue,
        callback: (err, msg) => {
          if (err) return this.log.warn(`bus: subscription ${subject}: ${err.message}`);
          const decoded = decode(channel.schema, msg.data);
          if (!decoded.ok) return this.malformed(channel.name, msg.subject, decoded.reason);
          this.runHandler(channel.name, () => handler(decoded.value as PayloadOf<C>, msg.subject));
        },
      });
      unsubscribe = () => sub.unsubscribe();
    });
    return () => unsubscribe();
  }

  async request<R extends RpcDef>(
    rpc: R,
    request: RequestOf<R>,
    options: { timeoutMs?: number; key?: string } = {},
  ): Promise<ReplyOf<R>> {
    const nc = await this.connectedWithin(options.timeoutMs ?? this.options.requestTimeoutMs ?? 5000);
    const data = encode(rpc.request, request, `${rpc.name} request`);
    let reply;
    try {
      reply = await nc.request(rpcSubject(rpc, options.key), data, {
        timeout: options.timeoutMs ?? this.options.requestTimeoutMs ?? 5000,
      });
    } catch (err) {
      const code = (err as NatsError).code;
      if (code === '503') throw new RpcError(503, `no ${rpc.name} responder is running`);
      if (code === 'TIMEOUT') throw new RpcError(504, `${rpc.name} did not answer in time`);
      throw new RpcError(503, `${rpc.name} failed: ${(err as Error).message}`);
    }
    const errorMessage = reply.headers?.get(ERROR_HEADER);
    if (errorMessage) throw new RpcError(Number(reply.headers?.get(ERROR_CODE_HEADER) || 500), errorMessage);
    const decoded = decode(rpc.reply, reply.data);
    if (!decoded.ok) {
      this.metrics.malformed(`${rpc.name} reply`);
      throw new RpcError(502, `${rpc.name} sent a malformed reply: ${decoded.reason}`);
    }
    return decoded.value as ReplyOf<R>;
  }

  serve<R extends RpcDef>(
    rpc: R,
    handler: (request: RequestOf<R>) => Promise<ReplyOf<R>>,
    options: { key?: string } = {},
  ): Unsubscribe {
    let cancelled = false;
    let unsubscribe: Unsubscribe = () => (cancelled = true);
    void this.connected.then((nc) => {
      if (cancelled) return;
      const sub = nc.subscribe(rpcSubject(rpc, options.key), {
        queue: this.options.name,
        callback: (err, msg) => {
          if (err) return this.log.warn(`bus: rpc ${rpc.name}: ${err.message}`);
          const fail = (code: number, message: string) => {
            const h = natsHeaders();
            h.set(ERROR_HEADER, message);
            h.set(ERROR_CODE_HEADER, String(code));
            msg.respond(new Uint8Array(0), { headers: h });
          };
          const decoded = decode(rpc.request, msg.data);
          if (!decoded.ok) {
            this.malformed(`${rpc.name} request`, msg.subject, decoded.reason);
            return fail(400, `malformed ${rpc.name} request: ${decoded.reason}`);
          }
          handler(decoded.value as RequestOf<R>)
            .then((result) => msg.respond(encode(rpc.reply, result, `${rpc.name} reply`)))
            .catch((error: unknown) => {
              if (error instanceof RpcError) return fail(error.code, error.message);
              this.metrics.handlerFailed(rpc.name);
              this.log.error(`bus: rpc ${rpc.name} failed: ${(error as Error).stack ?? error}`);
              fail(500, `${rpc.name} failed: ${(error as Error).message}`);
            });
        },
      });
      unsubscribe = () => sub.unsubscribe();
    });
    return () => unsubscribe();
  }

  async publishDurable<C extends Channel>(
    channel: C,
    subject: string,
    payload: PayloadOf<C>,
    options: { msgId: string; timeoutMs?: number },
  ): Promise<{ seq: number; duplicate: boolean }> {
    const data = encode(channel.schema, payload, channel.name);
    const nc = await this.connectedWithin(options.timeoutMs ?? 5000);
    await this.ensureEventsStream();
    const ack = await nc
      .jetstream()
      .publish(subject, data, { msgID: options.msgId, timeout: options.timeoutMs ?? 5000 });
    return { seq: ack.seq, duplicate: ack.duplicate };
  }

  consume<C extends Channel>(
    channel: C,
    options: DurableConsumerOptions,
    handler: (payload: PayloadOf<C>, delivery: Delivery) => void,
  ): Stoppable {
    let stopped = false;
    let current: { close(): Promise<void | Error> } | undefined;
    const loop = async () => {
      const nc = await this.connected;
      while (!stopped) {
        try {
          await this.ensureEventsStream();
          await this.ensureConsumer(await this.manager(), {
            durable: options.durable,
            filterSubject: options.filterSubject ?? channel.pattern,
            maxAckPending: options.maxAckPending ?? 1000,
            ackWaitMs: options.ackWaitMs ?? 30_000,
          });
          const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, options.durable);
          const messages = await consumer.consume({
            max_messages: Math.min(options.maxAckPending ?? 1000, 1000),
          });
          current = messages;
          if (stopped) await messages.close();
          for await (const msg of messages) {
            const decoded = decode(channel.schema, msg.data);
            if (!decoded.ok) {
              // Acknowledged, not redelivered forever: a malformed message never gets better.
              this.malformed(channel.name, msg.subject, decoded.reason);
              // No reason text: servers before 2.10 ignore a "+TERM <reason>" and redeliver.
              msg.term();
              continue;
            }
            const delivery: Delivery = {
              subject: msg.subject,
              json: decoded.json,
              streamSeq: msg.info.streamSequence,
              deliveryCount: msg.info.deliveryCount,
              ack: () => msg.ack(),
              nak: (delayMs) => msg.nak(delayMs),
            };
            this.runHandler(channel.name, () => handler(decoded.value as PayloadOf<C>, delivery));
          }
        } catch (err) {
          if (stopped) break;
          this.log.warn(
            `bus: consumer ${options.durable} interrupted, restarting: ${(err as Error).message}`,
          );
          await sleep(1000);
        }
      }
    };
    const running = loop();
    return {
      stop: async () => {
        stopped = true;
        await current?.close();
        await running.catch(() => undefined);
      },
    };
  }

  async kv<B extends BucketDef>(bucket: B): Promise<TypedKv<ValueOf<B>>> {
    const nc = await this.connected;
    const store = await nc.jetstream().views.kv(bucket.name, { history: 1 });
    return new NatsTypedKv<ValueOf<B>>(store, bucket, this.metrics, this.log);
  }

  async flush(): Promise<void> {
    await (await this.connected).flush();
  }

  async close(): Promise<void> {
    this.closeRequested = true;
    this.currentState = 'closed';
    const nc = this.connection;
    if (!nc || nc.isClosed()) return;
    // Drain delivers what is in flight, but it waits on every subscription, a pull consumer's
    // included; bounded, so a service's shutdown always ends.
    const drained = await withTimeout(
      nc.drain().then(
        () => true,
        () => false,
      ),
      DRAIN_TIMEOUT_MS,
      () => false,
    );
    if (!drained) await nc.close();
  }

  /**
   * Creates or updates the STUDIO_EVENTS stream, and the event store's durable consumer with it:
   * under interest retention a message published while nobody is interested is gone, so the
   * interest must exist before the first event does. Once per connection lifetime of this bus.
   */
  ensureEventsStream(): Promise<void> {
    this.streamReady ??= (async () => {
      const jsm = await this.manager();
      const limits = this.options.eventsStream ?? {};
      const config = {
        name: EVENTS_STREAM,
        subjects: [channels.eventRaw.pattern],
        // Interest + discard-new: an event leaves once every consumer acknowledged it, and a full
        // stream refuses new events (the publisher keeps and counts them) instead of silently
        // discarding old ones whose cluster nobody could name any more.
        retention: RetentionPolicy.Interest,
        storage: StorageType.File,
        discard: DiscardPolicy.New,
        max_age: nanos(limits.maxAgeMs ?? 0),
        max_bytes: limits.maxBytes ?? 1024 * 1024 * 1024,
        max_msgs: limits.maxMsgs ?? -1,
        duplicate_window: nanos(limits.duplicateWindowMs ?? 120_000),
      };
      let existing;
      try {
        existing = await jsm.streams.info(EVENTS_STREAM);
      } catch (err) {
        if ((err as NatsError).code !== '404') throw err;
      }
      if (existing && existing.config.retention !== RetentionPolicy.Interest) {
        // Retention cannot be changed in place; a stream of an earlier build is replaced.
        this.log.warn(
          `bus: replacing ${EVENTS_STREAM} (retention ${existing.config.retention}) with an interest-based stream`,
        );
        await jsm.streams.delete(EVENTS_STREAM);
        // NATS 2.9 removes the old stream's files in the background: a stream added at once under
        // the same name loses its message directory to that removal and fails every store.
        await sleep(2000);
        existing = undefined;
      }
      if (existing) await jsm.streams.update(EVENTS_STREAM, config);
      else await jsm.streams.add(config);
      await this.ensureConsumer(jsm, {
        durable: EVENTS_STREAM_CONSUMER,
        filterSubject: channels.eventRaw.pattern,
        maxAckPending: 10_000,
        ackWaitMs: 60_000,
      });
    })().catch((err) => {
      this.streamReady = undefined;
      throw err;
    });
    return this.streamReady;
  }

  private async ensureConsumer(
    jsm: JetStreamManager,
    options: Required<DurableConsumerOptions>,
  ): Promise<void> {
    const config = {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: options.filterSubject,
      max_ack_pending: options.maxAckPending,
      ack_wait: nanos(options.ackWaitMs),
    };
    try {
      // An existing consumer is used as it is. Not updated: NATS 2.9 (the machines' server) fails
      // every consumer update with "open …/obs/<name>/meta.inf: no such file or directory".
      await jsm.consumers.info(EVENTS_STREAM, options.durable);
    } catch (err) {
      if ((err as NatsError).code !== '404') throw err;
      await jsm.consumers.add(EVENTS_STREAM, config);
    }
  }

  private manager(): Promise<JetStreamManager> {
    this.jsm ??= this.connected.then((nc) => nc.jetstreamManager());
    return this.jsm;
  }

  private async connectedWithin(timeoutMs: number): Promise<NatsConnection> {
    if (this.connection) return this.connection;
    return withTimeout(this.connected, timeoutMs, () => {
      throw new RpcError(503, 'the bus is not connected to NATS');
    });
  }

  private malformed(channel: string, subject: string, reason: string): void {
    this.metrics.malformed(channel);
    this.log.warn(`bus: skipped a malformed ${channel} message on ${subject}: ${reason}`);
  }

  private runHandler(channel: string, run: () => void | Promise<void>): void {
    const fail = (err: unknown) => {
      this.metrics.handlerFailed(channel);
      this.log.error(`bus: ${channel} handler failed: ${(err as Error)?.stack ?? err}`);
    };
    try {
      const result = run();
      if (result instanceof Promise) result.catch(fail);
    } catch (err) {
      fail(err);
    }
  }
}

class NatsTypedKv<V> implements TypedKv<V> {
  constructor(
    private readonly store: KV,
    private readonly bucket: BucketDef,
    private readonly metrics: BusMetrics,
    private readonly log: BusLog,
  ) {}

  async get(key: string): Promise<KvEntry<V> | null> {
    const entry = await this.store.get(key);
    if (!entry || entry.operation !== 'PUT') return null;
    const value = this.decodeValue(key, entry.value);
    return value === undefined ? null : { key, value, revision: entry.revision };
  }

  put(key: string, value: V): Promise<number> {
    return this.store.put(key, encode(this.bucket.schema, value, `${this.bucket.name} value`));
  }

  async create(key: string, value: V): Promise<number | null> {
    try {
      return await this.store.create(key, encode(this.bucket.schema, value, `${this.bucket.name} value`));
    } catch (err) {
      if (isWrongRevision(err)) return null;
      throw err;
    }
  }

  async update(key: string, value: V, revision: number): Promise<number | null> {
    try {
      return await this.store.update(
        key,
        encode(this.bucket.schema, value, `${this.bucket.name} value`),
        revision,
      );
    } catch (err) {
      if (isWrongRevision(err)) return null;
      throw err;
    }
  }

  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }

  async keys(): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of await this.store.keys()) keys.push(key);
    return keys;
  }

  watch(handler: (key: string, value: V | null) => void): Stoppable {
    let iterator: { stop(): void } | undefined;
    let stopped = false;
    const running = (async () => {
      const updates = await this.store.watch();
      iterator = updates;
      if (stopped) updates.stop();
      for await (const entry of updates) {
        if (entry.operation !== 'PUT') {
          handler(entry.key, null);
          continue;
        }
        const value = this.decodeValue(entry.key, entry.value);
        if (value !== undefined) handler(entry.key, value);
      }
    })();
    running.catch((err) =>
      this.log.warn(`bus: watch of ${this.bucket.name} ended: ${(err as Error).message}`),
    );
    return {
      stop: async () => {
        stopped = true;
        iterator?.stop();
        await running.catch(() => undefined);
      },
    };
  }

  private decodeValue(key: string, data: Uint8Array): V | undefined {
    const decoded = decode(this.bucket.schema, data);
    if (decoded.ok) return decoded.value as V;
    this.metrics.malformed(this.bucket.name);
    this.log.warn(`bus: skipped a malformed ${this.bucket.name} value at ${key}: ${decoded.reason}`);
    return undefined;
  }
}

function rpcSubject(rpc: RpcDef, key?: string): string {
  return key ? `${subjects.rpc(rpc.name)}.${key}` : subjects.rpc(rpc.name);
}

function isWrongRevision(err: unknown): boolean {
  const message = (err as Error)?.message ?? '';
  return /wrong last sequence|key exists/i.test(message);
}
