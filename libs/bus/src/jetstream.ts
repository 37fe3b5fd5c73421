import type { Channel, ConsumerDef, PayloadOf, StreamDef, StreamLimits } from '@artemis-studio/contracts';
import { sleep } from '@artemis-studio/timing';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  nanos,
  type JetStreamManager,
  type Msg,
  type NatsConnection,
  type NatsError,
} from 'nats';
import type { Delivery, DurableConsumerOptions, Stoppable } from './bus';
import { decode } from './codec';
import { acknowledge, pulledInfo, pullMessages } from './pulls';
import { replicasFor, type ReplicaSetting } from './replicas';
import type { BusReporter } from './reporter';

/** JetStream API error codes (nats-server's `err_code`), told apart by number, not by message text. */
export const JS_ERRORS = {
  streamNotFound: 10059,
  consumerNotFound: 10014,
  /** An optimistic write (KV create/update) lost to a concurrent one. */
  wrongLastSequence: 10071,
} as const;

export const jsErrorCode = (err: unknown): number | undefined => (err as NatsError)?.api_error?.err_code;

/**
 * Streams and durable consumers, applied from their declarations in the contracts: each stream is
 * created or updated once per bus (again after a failure), with its declared consumers, the first
 * time anything publishes to or consumes from it.
 */
export class JetStreamStreams {
  private manager?: Promise<JetStreamManager>;
  private readonly ready = new Map<string, Promise<void>>();

  constructor(
    private readonly connected: Promise<NatsConnection>,
    private readonly limits: Record<string, Partial<StreamLimits>>,
    private readonly reporter: BusReporter,
    private readonly replicas: ReplicaSetting = 'auto',
  ) {}

  /** The channel's stream; a channel without one cannot be published durably or consumed. */
  static streamOf(channel: Channel): StreamDef {
    if (!channel.stream) throw new Error(`channel ${channel.name} is not captured by a stream`);
    return channel.stream;
  }

  ensure(stream: StreamDef): Promise<void> {
    let ready = this.ready.get(stream.name);
    if (!ready) {
      ready = this.apply(stream).catch((err) => {
        this.ready.delete(stream.name);
        throw err;
      });
      this.ready.set(stream.name, ready);
    }
    return ready;
  }

  /** An existing consumer is used as it is, a missing one created. */
  async ensureConsumer(stream: StreamDef, consumer: Required<DurableConsumerOptions>): Promise<void> {
    const jsm = await this.jsm();
    try {
      // Not updated: NATS 2.9 (the machines' server) fails every consumer update with
      // "open …/obs/<name>/meta.inf: no such file or directory".
      await jsm.consumers.info(stream.name, consumer.durable);
    } catch (err) {
      if (jsErrorCode(err) !== JS_ERRORS.consumerNotFound) throw err;
      await jsm.consumers.add(stream.name, {
        durable_name: consumer.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: consumer.filterSubject,
        max_ack_pending: consumer.maxAckPending,
        ack_wait: nanos(consumer.ackWaitMs),
      });
    }
  }

  private jsm(): Promise<JetStreamManager> {
    // Forgotten when it fails: jetstreamManager() asks the server, and a manager first asked for
    // while NATS was away stayed rejected, so a notifier that first published then never did.
    this.manager ??= this.connected
      .then((nc) => nc.jetstreamManager())
      .catch((err: unknown) => {
        this.manager = undefined;
        throw err;
      });
    return this.manager;
  }

  /**
   * A bucket with the replicas the bus keeps: made by an earlier build with others, it is changed
   * in place (its stream is `KV_<bucket>`; NATS moves the data). A replicated bucket answers 503
   * until its group has elected a leader: this waits for that (10 s at most), not the first write.
   */
  async settleBucket(bucket: string, replicas: number): Promise<void> {
    const nc = await this.connected;
    const wanted = replicasFor(this.replicas, nc.info);
    const jsm = await this.jsm();
    const stream = `KV_${bucket}`;
    if (replicas !== wanted) {
      const info = await jsm.streams.info(stream);
      this.reporter.log.warn(`bus: bucket ${bucket} kept ${replicas} replicas; now ${wanted}`);
      await jsm.streams.update(stream, { ...info.config, num_replicas: wanted });
    }
    if (wanted === 1) return;
    for (let waited = 0; waited < 10_000; waited += 200) {
      const now = await jsm.streams.info(stream).catch(() => undefined);
      if (now?.cluster?.leader && (now.cluster.replicas ?? []).filter((r) => r.current).length >= wanted - 1)
        return;
      await sleep(200);
    }
  }

  /** The replicas a new bucket is created with. */
  async bucketReplicas(): Promise<number> {
    return replicasFor(this.replicas, (await this.connected).info);
  }

  private async apply(stream: StreamDef): Promise<void> {
    const jsm = await this.jsm();
    const replicas = replicasFor(this.replicas, (await this.connected).info);
    const limits = { ...stream.limits, ...this.limits[stream.name] };
    const retention = stream.retention === 'interest' ? RetentionPolicy.Interest : RetentionPolicy.Limits;
    const config = {
      name: stream.name,
      subjects: [...stream.subjects],
      retention,
      storage: StorageType.File,
      discard: stream.discard === 'new' ? DiscardPolicy.New : DiscardPolicy.Old,
      max_age: nanos(limits.maxAgeMs),
      max_bytes: limits.maxBytes,
      max_msgs: limits.maxMsgs,
      duplicate_window: nanos(limits.duplicateWindowMs),
      // Durable consumers inherit it (their num_replicas 0 means the stream's).
      num_replicas: replicas,
    };
    let existing;
    try {
      existing = await jsm.streams.info(stream.name);
    } catch (err) {
      if (jsErrorCode(err) !== JS_ERRORS.streamNotFound) throw err;
    }
    if (existing && existing.config.retention !== retention) {
      // Retention cannot be changed in place; a stream of an earlier build is replaced.
      this.reporter.log.warn(
        `bus: replacing ${stream.name} (retention ${existing.config.retention}) with retention ${retention}`,
      );
      await jsm.streams.delete(stream.name);
      // NATS 2.9 removes the old stream's files in the background: a stream added at once under
      // the same name loses its message directory to that removal and fails every store.
      await sleep(2000);
      existing = undefined;
    }
    if (existing) await jsm.streams.update(stream.name, config);
    else await jsm.streams.add(config);
    for (const consumer of stream.consumers) await this.ensureConsumer(stream, withDefaults(consumer));
  }
}

/** A consumer's options with what it left out: the stream's subjects, 1,000 in flight, 30 s to ack. */
function withDefaults(
  options: DurableConsumerOptions | ConsumerDef,
  channel?: Channel,
): Required<DurableConsumerOptions> {
  return {
    durable: options.durable,
    filterSubject: options.filterSubject ?? channel?.pattern ?? '>',
    maxAckPending: options.maxAckPending ?? 1000,
    ackWaitMs: options.ackWaitMs ?? 30_000,
  };
}

/** How long a stopping consumer waits for its acknowledgements to reach the server. */
const FLUSH_LIMIT_MS = 2_000;

/**
 * Pulls the consumer's deliveries into `handler` until stopped, restarting after an interruption
 * (NATS restarted, the consumer deleted). A malformed message is counted and terminated, since it
 * never gets better. A stop lets every pull already sent end first (./pulls: what nats.js's own
 * consumers leave to the acknowledgement window when they stop).
 */
export function consume<C extends Channel>(
  connected: Promise<NatsConnection>,
  streams: JetStreamStreams,
  channel: C,
  options: DurableConsumerOptions,
  handler: (payload: PayloadOf<C>, delivery: Delivery) => void,
  reporter: BusReporter,
): Stoppable {
  const stream = JetStreamStreams.streamOf(channel);
  const consumer = withDefaults(options, channel);
  const stopping = new AbortController();
  const deliver = (msg: Msg) => {
    const info = pulledInfo(msg.reply);
    if (!info) return reporter.malformed(channel.name, msg.subject, 'not a JetStream delivery');
    const decoded = decode(channel.schema, msg.data);
    if (!decoded.ok) {
      reporter.malformed(channel.name, msg.subject, decoded.reason);
      acknowledge.term(msg);
      return;
    }
    const { streamSeq, deliveryCount } = info;
    const delivery: Delivery = {
      subject: msg.subject,
      json: decoded.json,
      data: msg.data,
      streamSeq,
      deliveryCount,
      ack: () => acknowledge.ack(msg),
      nak: (delayMs) => acknowledge.nak(msg, delayMs),
    };
    reporter.runHandler(channel.name, () => handler(decoded.value as PayloadOf<C>, delivery));
  };
  const loop = async () => {
    const nc = await connected;
    while (!stopping.signal.aborted) {
      try {
        await streams.ensure(stream);
        await streams.ensureConsumer(stream, consumer);
        const target = {
          stream: stream.name,
          durable: consumer.durable,
          batch: Math.min(consumer.maxAckPending, 1000),
        };
        await pullMessages(nc, target, stopping.signal, deliver, (owed) =>
          reporter.pullsGivenUp(consumer.durable, owed),
        );
      } catch (err) {
        if (stopping.signal.aborted) break;
        reporter.log.warn(
          `bus: consumer ${consumer.durable} interrupted, restarting: ${(err as Error).message}`,
        );
        await sleep(1000, stopping.signal);
      }
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopping.abort();
      await running.catch(() => undefined);
      // The acknowledgements of what the last pulls delivered leave with the client's next write:
      // without a flush, the server still counted up to a batch as pending once the stop resolved.
      await flushed(await connected);
    },
  };
}

/** Resolves once the server has what this client wrote, or after FLUSH_LIMIT_MS (NATS away). */
async function flushed(nc: NatsConnection): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    nc.flush().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_LIMIT_MS))),
  ]);
  clearTimeout(timer);
}
