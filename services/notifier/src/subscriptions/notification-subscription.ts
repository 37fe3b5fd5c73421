import { NOTIFICATION_ADDRESS, type Credential } from '@artemis-studio/contracts';
import { Backoff, sleep, withTimeout } from '@artemis-studio/timing';
import { Connection, ConnectionEvents, ReceiverEvents, type EventContext, type Receiver } from 'rhea-promise';
import { classifyFailure, type SubscriptionState } from '../capabilities/verdict';
import type { CreditGate } from '../publishing/credit-gate';
import type { Receipt } from '../publishing/event-publisher';

/**
 * The AMQP idle timeout we announce: the broker sends a frame, an empty one when it has nothing to
 * say, at least every half of it.
 */
export const IDLE_TIMEOUT_MS = 15_000;

/**
 * The longest a connection that receives nothing goes unnoticed: rhea gives it up after twice the
 * announced idle timeout, not once (its connection.js arms `idle_time_out * 2`), and aborts the
 * socket a second later; the rest is room for a busy event loop. A connection given up now had
 * its last frame at most this long ago, however quiet its broker was. Dating a loss with the idle
 * timeout alone started the period up to 30 s after a silent cut.
 */
export function silenceLimitMs(idleTimeoutMs: number): number {
  return 2 * idleTimeoutMs + 5_000;
}

export interface SubscriptionOptions {
  /** `ring`: Studio's durable ring of notifications on the node, read instead of a queue of our own. */
  node: { name: string; amqpUrl: string; ring?: string };
  credential: Credential | undefined;
  /** Our AMQP container id: the broker reports it as `_AMQ_Client_ID` on our own consumer. */
  containerId: string;
  /** Messages the broker may send before we grant more: the bound on what a chatty broker can push at once. */
  creditWindow: number;
  /** Whether more credit may be granted; while it is held, the broker keeps what it would send. */
  gate: CreditGate;
  /** The AMQP idle timeout to announce (IDLE_TIMEOUT_MS unless a test needs a cut noticed sooner). */
  idleTimeoutMs: number;
  /** `receipt` accepts the notification: until then the broker keeps it (in a ring, for the next reader). */
  onNotification(properties: Record<string, unknown> | undefined, receipt: Receipt): void;
  onState(state: SubscriptionState): void;
  backoff?: Backoff;
}

/**
 * One AMQP 1.0 receiver on `activemq.notifications` of one live node. Connects once and fails
 * fast (the library's reconnect is off: it would retry a dead host in a loop we cannot see), then
 * reconnects itself with exponential backoff and full jitter, reset by a healthy subscription.
 */
export class NotificationSubscription {
  private stopped = false;
  private connection?: Connection;
  /** Aborted by stop(): ends the wait before a reconnect at once. */
  private readonly stopping = new AbortController();
  private readonly backoff: Backoff;
  private running?: Promise<void>;

  constructor(private readonly options: SubscriptionOptions) {
    // Reconnects from 1 s to 5 min (ADR-0026).
    this.backoff = options.backoff ?? new Backoff({ minMs: 1000, maxMs: 300_000 });
  }

  get node(): string {
    return this.options.node.name;
  }

  get amqpUrl(): string {
    return this.options.node.amqpUrl;
  }

  /** The ring it reads, or undefined for a subscription of its own. */
  get ring(): string | undefined {
    return this.options.node.ring;
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    // The close is ours alone: the run ends at the abort, whether or not the broker answers it.
    await Promise.all([closeWithin(this.connection), this.running]);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.options.onState({ node: this.node, state: 'connecting' });
      let failure: unknown;
      try {
        failure = await this.subscribeUntilLost();
      } catch (err) {
        failure = err;
      }
      if (this.stopped) return;
      await closeWithin(this.connection);
      this.connection = undefined;
      if (this.stopped) return;
      this.options.onState({ node: this.node, state: 'failed', ...classifyFailure(failure) });
      await sleep(this.backoff.next(), this.stopping.signal);
    }
  }

  /** Resolves with the reason once a subscription is lost; throws if it never came up. */
  private async subscribeUntilLost(): Promise<unknown> {
    const url = new URL(this.options.node.amqpUrl);
    const tls = url.protocol === 'amqps:';
    const connection = new Connection({
      host: url.hostname,
      port: Number(url.port || (tls ? 5671 : 5672)),
      ...(tls ? { transport: 'tls' as const } : { transport: 'tcp' as const }),
      username: this.options.credential?.username,
      password: this.options.credential?.password,
      container_id: this.options.containerId,
      reconnect: false,
      idle_time_out: this.options.idleTimeoutMs,
      operationTimeoutInSeconds: 10,
    });
    this.connection = connection;
    const lost = new Promise<unknown>((resolve) => {
      connection.on(ConnectionEvents.disconnected, (ctx: EventContext) =>
        resolve(ctx.error ?? new Error('disconnected')),
      );
      connection.on(ConnectionEvents.connectionError, (ctx: EventContext) =>
        resolve(ctx.connection?.error ?? new Error('connection error')),
      );
      connection.on(ConnectionEvents.connectionClose, (ctx: EventContext) =>
        resolve(ctx.connection?.error ?? new Error('connection closed by the broker')),
      );
    });
    // A stop aborts a connect in flight: a broker slow to answer (starting, failing over) would
    // otherwise hold the shutdown for the whole operation timeout, and a handover past the
    // container's stop time ends in a kill (seen in the compose check: 31 s, once 137).
    const abortSignal = this.stopping.signal;
    await connection.open({ abortSignal });
    if (this.stopped) return undefined;
    const { ring } = this.options.node;
    const receiver = await connection.createReceiver({
      abortSignal,
      name: `${this.options.containerId}-${this.node}`,
      // A ring is named in full (address::queue): the broker then reads that queue and makes none.
      source: { address: ring ? `${NOTIFICATION_ADDRESS}::${ring}` : NOTIFICATION_ADDRESS },
      // Credit is ours to grant (rhea's window would refill it whatever the publisher's state).
      credit_window: 0,
      // Accepted once on the stream: a ring gives what was never accepted to the next reader.
      autoaccept: false,
    });
    const detached = new Promise<unknown>((resolve) => {
      receiver.on(ReceiverEvents.receiverError, (ctx: EventContext) =>
        resolve(ctx.receiver?.error ?? new Error('receiver error')),
      );
      receiver.on(ReceiverEvents.receiverClose, (ctx: EventContext) =>
        resolve(ctx.receiver?.error ?? new Error('receiver closed by the broker')),
      );
    });
    // Artemis does not refuse a forbidden attach: it answers with a null source, then detaches with
    // the reason (AMQ229213). rhea hands the null source over as a described-null object (truthy),
    // so the refusal shows as a closed link or a source without an address.
    if (!receiver.isOpen() || !receiver.source?.address) {
      throw await withTimeout(detached, 2000, () => refusal(receiver));
    }

    const { gate } = this.options;
    let asked = false;
    const grant = () => {
      asked = false;
      if (!receiver.isOpen()) return;
      const wanted = gate.window(this.options.creditWindow) - receiver.credit;
      const granted = wanted > 0 ? gate.take(wanted, ring !== undefined) : 0;
      if (granted > 0) receiver.addCredit(granted);
      // Less than wanted, and none in hand: wait for the pool, or the broker would never send again.
      if (receiver.credit === 0) ask();
    };
    const ask = () => {
      if (asked) return;
      asked = true;
      gate.whenOpen(grant, ring !== undefined);
    };
    const leave = gate.join();
    receiver.on(ReceiverEvents.message, (ctx: EventContext) => {
      gate.used();
      const { delivery } = ctx;
      this.options.onNotification(ctx.message?.application_properties, {
        kept: ring !== undefined,
        accept: () => {
          try {
            delivery?.accept();
          } catch {
            // The link is gone: a ring gives the notification again, a temporary queue is gone with it.
          }
        },
      });
      // Topped up at half the window, so a busy broker is never waiting for a round trip.
      if (receiver.credit <= gate.window(this.options.creditWindow) / 2) ask();
    });
    // A subscription opened while the brokers hold starts holding too.
    ask();
    this.backoff.reset();
    this.options.onState({ node: this.node, state: 'subscribed' });
    // A stop ends the wait by itself: a frozen broker answers no close, and the line would stay
    // open until its idle timeout (twice IDLE_TIMEOUT_MS), past a container's stop grace period.
    const stopped = new Promise<undefined>((resolve) =>
      abortSignal.addEventListener('abort', () => resolve(undefined), { once: true }),
    );
    const reason = await Promise.race([lost, detached, stopped]);
    leave();
    gate.returned(receiver.credit, grant);
    return reason;
  }
}

/**
 * How long closing a connection may take. rhea-promise's close() never settles when the socket
 * drops while it closes: its `disconnected` handler removes the listeners and the timeout, and
 * neither resolves nor rejects. Awaited bare, one such close held a notifier's shutdown for ever
 * (integration runs timed out in afterAll).
 */
export const CLOSE_WAIT_MS = 5000;

function closeWithin(connection: Connection | undefined): Promise<void> {
  if (!connection) return Promise.resolve();
  return withTimeout(
    connection.close().catch(() => undefined),
    CLOSE_WAIT_MS,
    () => undefined,
  );
}

function refusal(receiver: Receiver): unknown {
  return receiver.error ?? new Error(`the broker refused the subscription to ${NOTIFICATION_ADDRESS}`);
}

/**
 * When a notification was sent: the broker's stamp when it is earlier than the receipt. A busy
 * notifier reads its credit window late, and dating a lost subscription from the receipt of the
 * last notification would leave out what the broker sent between that one and the loss.
 */
export function sentAt(properties: Record<string, unknown> | undefined, receivedAt: number): number {
  const stamp = properties?._AMQ_NotifTimestamp;
  return typeof stamp === 'number' && stamp < receivedAt ? stamp : receivedAt;
}
