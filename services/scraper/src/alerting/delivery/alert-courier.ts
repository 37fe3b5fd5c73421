import type { Alert, AlertReceiverKind, AlertState } from '@artemis-studio/contracts';
import type { AlertDeliveryRepository, ClaimedDelivery, DeliveryOutcome } from './alert-delivery.repository';
import type { AlertChannels } from './channels/alert-channels';
import type { ChannelContext, ReceiverTarget } from './channels/alert-channel';

/** After this many tries a delivery is given up (`failed`): about half an hour of backoff. */
const DELIVERY_ATTEMPTS_MAX = 12;
/** Backoff after the n-th failed try: 2, 4, 8 … seconds, at most 5 minutes. */
export const backoffMs = (attempts: number): number => Math.min(2 ** attempts * 1000, 300_000);
/** How long a claimed delivery is left alone by another claim (a replica taking over meanwhile). */
const CLAIM_MS = 30_000;

export interface AlertCourierDeps {
  deliveries: Pick<AlertDeliveryRepository, 'claim' | 'settle' | 'firingTold'>;
  /** The cluster's enabled receivers, secrets opened. */
  receivers: (clusterId: string, ids: readonly string[]) => Promise<Map<string, ReceiverTarget>>;
  channels: AlertChannels;
  /** Publishes one transition on NATS and waits until the server has it. */
  publish: (clusterId: string, state: AlertState, at: Date, alert: Alert) => Promise<void>;
  post: typeof fetch;
  smtpCa: string | null;
  /** The console's public URL (STUDIO_CONSOLE_URL), for the link in each notification; null when unset. */
  consoleUrl?: string | null;
  delivered: (outcome: DeliveryOutcome) => void;
  log: { warn: (message: string) => void };
  now?: () => Date;
}

/**
 * Sends a cluster's owed notifications (the `alert_delivery` outbox), in order per alert and
 * receiver (a resolve never overtakes its fire), each through its receiver's channel, retrying
 * with backoff and recording each try. Runs on the cluster's owner; a takeover finds what is still
 * owed and sends it.
 */
export class AlertCourier {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** When each kind that resends last did. */
  private readonly lastResend = new Map<AlertReceiverKind, number>();

  constructor(
    private readonly clusterId: string,
    private readonly deps: AlertCourierDeps,
    private readonly tickMs = 1_000,
  ) {}

  start(): void {
    // Unref'd: the service's own lifecycle keeps the process alive, never this sweep. A courier
    // started while its replica shut down (a lease won in the last renewal) would otherwise hold
    // the process open for good.
    this.timer = setInterval(() => this.kick(), this.tickMs).unref();
    this.kick();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Sends what is due now; a kick while sending runs once more after. */
  kick(): void {
    if (!this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((err: Error) =>
        this.deps.log.warn(`alert deliveries of cluster ${this.clusterId}: ${err.message}`),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when the round in progress (if any) is over: for tests and shutdown. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private context(): ChannelContext {
    return {
      post: this.deps.post,
      now: this.deps.now?.() ?? new Date(),
      smtpCa: this.deps.smtpCa,
      consoleUrl: this.deps.consoleUrl ?? null,
    };
  }

  private async round(): Promise<void> {
    // Before the owed deliveries, never after: a resend read an alert as firing, and a resolve
    // committed since then must reach the receiver after the resend's post, or the post would
    // make the resolved alert active there again (for five minutes, in Alertmanager).
    await this.resendDue();
    for (;;) {
      const claimed = await this.deps.deliveries.claim(this.clusterId, CLAIM_MS);
      if (claimed.length === 0) break;
      const receivers = await this.deps.receivers(
        this.clusterId,
        claimed.flatMap((d) => (d.receiver_id ? [d.receiver_id] : [])),
      );
      for (const delivery of claimed) await this.deliver(delivery, receivers);
    }
  }

  private async deliver(delivery: ClaimedDelivery, receivers: Map<string, ReceiverTarget>): Promise<void> {
    try {
      if (delivery.receiver_id === null) {
        if (delivery.transition === 'test') throw new Error('a test notification names its receiver');
        await this.deps.publish(this.clusterId, delivery.transition, delivery.created_at, delivery.payload);
      } else {
        const receiver = receivers.get(delivery.receiver_id);
        // Disabled (or deleted, which cascades) since it was owed: nothing to send it to.
        if (!receiver) return await this.settle(delivery, 'failed', 'the receiver is disabled');
        await this.deps.channels[receiver.kind].send(
          receiver,
          { id: delivery.id, transition: delivery.transition, alert: delivery.payload },
          this.context(),
        );
      }
      await this.settle(delivery, 'delivered', null);
    } catch (err) {
      const message = (err as Error).message;
      // A test is tried once: the person who asked for it waits for its outcome, and why it failed.
      const last = delivery.transition === 'test' || delivery.attempts >= DELIVERY_ATTEMPTS_MAX;
      await this.settle(delivery, last ? 'failed' : 'retry', message);
      if (last)
        this.deps.log.warn(
          `alert delivery ${delivery.id} given up after ${delivery.attempts} tries: ${message}`,
        );
    }
  }

  private async settle(delivery: ClaimedDelivery, outcome: DeliveryOutcome, error: string | null) {
    this.deps.delivered(outcome);
    await this.deps.deliveries.settle(delivery.id, outcome, error, backoffMs(delivery.attempts));
  }

  /** The firing alerts told to receivers that forget them, told again once their kind is due. */
  private async resendDue(): Promise<void> {
    const now = (this.deps.now?.() ?? new Date()).getTime();
    const due = Object.values(this.deps.channels).filter(
      (c) => c.resend && now - (this.lastResend.get(c.kind) ?? 0) >= c.resend.everyMs,
    );
    if (due.length === 0) return;
    for (const channel of due) this.lastResend.set(channel.kind, now);
    const told = await this.deps.deliveries.firingTold(
      this.clusterId,
      due.map((c) => c.kind),
    );
    if (told.size === 0) return;
    const receivers = await this.deps.receivers(this.clusterId, [...told.keys()]);
    for (const [receiverId, firing] of told) {
      const receiver = receivers.get(receiverId);
      const resend = receiver && this.deps.channels[receiver.kind].resend;
      if (!resend) continue;
      await resend
        .send(receiver, firing, this.context())
        .catch((err: Error) =>
          this.deps.log.warn(`${receiver.kind} receiver ${receiver.url} not told again: ${err.message}`),
        );
    }
  }
}
