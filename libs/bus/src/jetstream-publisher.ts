import { createInbox, headers, type Msg, type NatsConnection, type Subscription } from 'nats';

export interface PubAck {
  seq: number;
  duplicate: boolean;
}

interface Awaiting {
  resolve(ack: PubAck): void;
  reject(err: Error): void;
  deadline: number;
}

/** How often publishes past their deadline are looked for. */
const SWEEP_MS = 250;

/**
 * JetStream publishes whose acknowledgements come back on one subscription of ours, each matched
 * by the last token of its reply subject. nats.js's `js.publish` is a request per publish: a new
 * client object per call (as we called it), a reply mux entry, a timer, a deferred and an error
 * made in advance for a timeout that almost never comes: with them, the NATS client took a fifth of
 * the notifier's CPU profile at 1,000 events/s. Here a publish costs a map entry and a headers
 * object, and one timer sweeps the deadlines.
 */
export class JetStreamPublisher {
  private readonly awaiting = new Map<string, Awaiting>();
  private subscribed?: { nc: NatsConnection; sub: Subscription; prefix: string };
  private next = 0;
  private sweeper?: NodeJS.Timeout;

  publish(
    nc: NatsConnection,
    subject: string,
    data: Uint8Array | string,
    options: { msgId: string; timeoutMs: number },
  ): Promise<PubAck> {
    const prefix = this.repliesOn(nc);
    const token = (this.next++).toString(36);
    const h = headers();
    h.set('Nats-Msg-Id', options.msgId);
    return new Promise<PubAck>((resolve, reject) => {
      this.awaiting.set(token, { resolve, reject, deadline: Date.now() + options.timeoutMs });
      this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
      try {
        nc.publish(subject, data, { reply: `${prefix}.${token}`, headers: h });
      } catch (err) {
        this.awaiting.delete(token);
        reject(err as Error);
      }
    });
  }

  /** Rejects whatever still waits: the bus closed, and no acknowledgement can come now. */
  close(): void {
    this.fail([...this.awaiting.keys()], 'the bus closed before the stream acknowledged');
    this.subscribed?.sub.unsubscribe();
    this.subscribed = undefined;
  }

  private repliesOn(nc: NatsConnection): string {
    if (this.subscribed?.nc === nc) return this.subscribed.prefix;
    this.subscribed?.sub.unsubscribe();
    const prefix = createInbox();
    const sub = nc.subscribe(`${prefix}.*`, { callback: (err, msg) => err || this.acknowledged(msg) });
    this.subscribed = { nc, sub, prefix };
    return prefix;
  }

  private acknowledged(msg: Msg): void {
    const token = msg.subject.slice(msg.subject.lastIndexOf('.') + 1);
    const awaiting = this.awaiting.get(token);
    if (!awaiting) return; // Past its deadline, already rejected.
    this.awaiting.delete(token);
    // A status without a body: 503 when no stream captures the subject (or JetStream is down).
    if (msg.headers?.hasError) {
      const code = msg.headers.code;
      return awaiting.reject(
        new Error(
          code === 503 ? 'no stream answered (503 no responders)' : `${code} ${msg.headers.description}`,
        ),
      );
    }
    let ack: { seq?: number; duplicate?: boolean; error?: { code: number; description: string } };
    try {
      ack = msg.json();
    } catch {
      return awaiting.reject(new Error('the stream answered something other than an acknowledgement'));
    }
    if (ack.error) return awaiting.reject(new Error(`${ack.error.code} ${ack.error.description}`));
    awaiting.resolve({ seq: ack.seq ?? 0, duplicate: ack.duplicate === true });
  }

  private sweep(): void {
    const now = Date.now();
    const expired = [...this.awaiting].filter(([, { deadline }]) => deadline <= now).map(([token]) => token);
    this.fail(expired, 'timeout: the stream did not acknowledge in time');
    if (this.awaiting.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private fail(tokens: string[], message: string): void {
    for (const token of tokens) {
      const awaiting = this.awaiting.get(token);
      this.awaiting.delete(token);
      awaiting?.reject(new Error(message));
    }
  }
}
