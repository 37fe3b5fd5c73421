import type {
  BucketDef,
  Channel,
  PayloadOf,
  ReplyOf,
  RequestOf,
  RpcDef,
  StreamDef,
  StreamLimits,
  ValueOf,
} from '@artemis-studio/contracts';
import type {
  Bus,
  BusMetrics,
  BusState,
  Delivery,
  DurableConsumerOptions,
  HandlersOf,
  Stoppable,
  TypedKv,
  Unsubscribe,
} from './bus';
import { noopBusMetrics } from './bus';
import { decode, encode } from './codec';
import { BusConnection, type NatsAuth } from './connection';
import { JetStreamStreams, consume } from './jetstream';
import { JetStreamPublisher } from './jetstream-publisher';
import { NatsTypedKv } from './kv';
import type { ReplicaSetting } from './replicas';
import { BusReporter, type BusLog } from './reporter';
import { request, serveEndpoints, type Served } from './rpc';

export interface NatsBusOptions {
  servers: string | string[];
  /** How this client proves who it is to NATS: an account's user, or a `.creds` file's content. */
  auth?: NatsAuth;
  /** Client name, shown by the server; also the default queue group for served RPCs. */
  name: string;
  metrics?: BusMetrics;
  log?: BusLog;
  requestTimeoutMs?: number;
  /** A deployment's limits for declared streams, by stream name, over the declared ones. */
  streamLimits?: Record<string, Partial<StreamLimits>>;
  /** Copies of every stream and bucket (NATS_REPLICAS): `auto` is 3 on a clustered server, else 1. */
  replicas?: ReplicaSetting;
}

const consoleLog: BusLog = { warn: (m) => console.warn(m), error: (m) => console.error(m) };

/**
 * The bus over NATS, in the parts nats.js has: the connection (./connection), publish and
 * subscribe (here), request and reply (./rpc), JetStream streams and consumers (./jetstream) and
 * KV (./kv). What is published, on which subject, in which stream, is declared in the contracts.
 */
export class NatsBus implements Bus {
  private readonly connection: BusConnection;
  private readonly streams: JetStreamStreams;
  private readonly reporter: BusReporter;
  private readonly bucketsEnsured = new Set<string>();
  private readonly jetStreamPublisher = new JetStreamPublisher();

  constructor(private readonly options: NatsBusOptions) {
    this.reporter = new BusReporter(options.metrics ?? noopBusMetrics, options.log ?? consoleLog);
    this.connection = new BusConnection(options, this.reporter.log);
    this.streams = new JetStreamStreams(
      this.connection.connected,
      options.streamLimits ?? {},
      this.reporter,
      options.replicas,
    );
  }

  get state(): BusState {
    return this.connection.state;
  }

  async ready(): Promise<void> {
    await this.connection.connected;
  }

  publish<C extends Channel>(channel: C, subject: string, payload: PayloadOf<C>): boolean {
    return this.publishData(channel, subject, encode(channel.schema, payload, channel.name));
  }

  publishJson<C extends Channel>(channel: C, subject: string, json: string | Uint8Array): boolean {
    return this.publishData(channel, subject, json);
  }

  subscribe<C extends Channel>(
    channel: C,
    subject: string,
    handler: (payload: PayloadOf<C>, subject: string) => void | Promise<void>,
    options: { queue?: string } = {},
  ): Unsubscribe {
    let cancelled = false;
    let unsubscribe: Unsubscribe = () => (cancelled = true);
    void this.connection.connected.then((nc) => {
      if (cancelled) return;
      const sub = nc.subscribe(subject, {
        queue: options.queue,
        callback: (err, msg) => {
          if (err) return this.reporter.log.warn(`bus: subscription ${subject}: ${err.message}`);
          const decoded = decode(channel.schema, msg.data);
          if (!decoded.ok) return this.reporter.malformed(channel.name, msg.subject, decoded.reason);
          this.reporter.runHandler(channel.name, () => handler(decoded.value as PayloadOf<C>, msg.subject));
        },
      });
      unsubscribe = () => sub.unsubscribe();
    });
    return () => unsubscribe();
  }

  async request<R extends RpcDef>(
    rpc: R,
    payload: RequestOf<R>,
    options: { timeoutMs?: number; key?: string } = {},
  ): Promise<ReplyOf<R>> {
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? 5000;
    const nc = await this.connection.within(timeoutMs);
    return request(nc, rpc, payload, { timeoutMs, key: options.key }, this.reporter);
  }

  serve<R extends RpcDef>(
    rpc: R,
    handler: (request: RequestOf<R>) => Promise<ReplyOf<R>>,
    options: { key?: string; checkReply?: boolean } = {},
  ): Unsubscribe {
    return serveEndpoints(
      this.connection.connected,
      [{ rpc, handler, checkReply: options.checkReply } as Served],
      { queue: this.options.name, key: options.key },
      this.reporter,
    );
  }

  serveKeyed<T extends Record<string, RpcDef>>(table: T, handlers: HandlersOf<T>, key: string): Unsubscribe {
    const endpoints = (Object.keys(table) as (keyof T)[]).map(
      (name) => ({ rpc: table[name], handler: handlers[name] }) as Served,
    );
    return serveEndpoints(
      this.connection.connected,
      endpoints,
      { queue: this.options.name, key },
      this.reporter,
    );
  }

  publishDurable<C extends Channel>(
    channel: C,
    subject: string,
    payload: PayloadOf<C>,
    options: { msgId: string; timeoutMs?: number },
  ): Promise<{ seq: number; duplicate: boolean }> {
    return this.publishDurableData(channel, subject, encode(channel.schema, payload, channel.name), options);
  }

  publishDurableJson<C extends Channel>(
    channel: C,
    subject: string,
    json: string,
    options: { msgId: string; timeoutMs?: number },
  ): Promise<{ seq: number; duplicate: boolean }> {
    return this.publishDurableData(channel, subject, json, options);
  }

  private async publishDurableData(
    channel: Channel,
    subject: string,
    data: Uint8Array | string,
    options: { msgId: string; timeoutMs?: number },
  ): Promise<{ seq: number; duplicate: boolean }> {
    const timeoutMs = options.timeoutMs ?? 5000;
    const nc = await this.connection.within(timeoutMs);
    await this.streams.ensure(JetStreamStreams.streamOf(channel));
    return this.jetStreamPublisher.publish(nc, subject, data, { msgId: options.msgId, timeoutMs });
  }

  consume<C extends Channel>(
    channel: C,
    options: DurableConsumerOptions,
    handler: (payload: PayloadOf<C>, delivery: Delivery) => void,
  ): Stoppable {
    return consume(this.connection.connected, this.streams, channel, options, handler, this.reporter);
  }

  /** Creates or updates a declared stream and its consumers now, rather than at first use. */
  ensureStream(stream: StreamDef): Promise<void> {
    return this.streams.ensure(stream);
  }

  async kv<B extends BucketDef>(bucket: B): Promise<TypedKv<ValueOf<B>>> {
    const nc = await this.connection.connected;
    const store = await nc
      .jetstream()
      .views.kv(bucket.name, { history: 1, replicas: await this.streams.bucketReplicas() });
    // Once per bucket and bus: a bucket an earlier build made with other replicas is changed.
    if (!this.bucketsEnsured.has(bucket.name)) {
      await this.streams.settleBucket(bucket.name, (await store.status()).replicas);
      this.bucketsEnsured.add(bucket.name);
    }
    return new NatsTypedKv<ValueOf<B>>(store, bucket, this.reporter);
  }

  async flush(): Promise<void> {
    await (await this.connection.connected).flush();
  }

  onReconnect(listener: () => void): Unsubscribe {
    return this.connection.onReconnect(listener);
  }

  async close(): Promise<void> {
    await this.connection.close();
    this.jetStreamPublisher.close();
  }

  private publishData(channel: Channel, subject: string, data: Uint8Array | string): boolean {
    const nc = this.connection.current;
    if (!nc || nc.isClosed()) {
      this.reporter.metrics.publishDropped(channel.name);
      return false;
    }
    // While reconnecting the client buffers (reconnectBufSize); past that it throws, and we count.
    try {
      nc.publish(subject, data);
      return true;
    } catch (err) {
      this.reporter.metrics.publishDropped(channel.name);
      this.reporter.log.warn(
        `bus: could not publish ${channel.name} on ${subject}: ${(err as Error).message}`,
      );
      return false;
    }
  }
}
