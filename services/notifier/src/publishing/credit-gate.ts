export interface CreditGateOptions {
  /**
   * The longest the brokers are made to hold notifications. Past it credit is granted again and
   * what the buffer cannot take is dropped and counted, as before back-pressure: a temporary
   * subscription queue has no bound of its own, and the broker's memory is the operator's.
   */
  holdLimitMs: number;
  onHold?(): void;
  /** `heldMs` is how long the brokers held; `overLimit` when the limit, not a drained buffer, ended it. */
  onRelease?(heldMs: number, overLimit: boolean): void;
  now?: () => number;
}

/**
 * Whether the subscriptions may take more notifications from the brokers (ADR-0014). The
 * publisher holds it while its buffer is too full (NATS away or slow) and releases it as publishes
 * are acknowledged; while it is held, subscriptions grant no AMQP credit, so the notifications
 * wait in each subscription's queue on the broker instead of being dropped here.
 */
export class CreditGate {
  private heldAt?: number;
  /** The limit ended the last hold: no new one until the buffer has drained, or the limit bounds nothing. */
  private spent = false;
  private limitTimer?: NodeJS.Timeout;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly options: CreditGateOptions) {}

  /** Whether credit may be granted now. */
  isOpen(): boolean {
    return this.heldAt === undefined;
  }

  /** When the brokers started holding, while they do: a subscription lost meanwhile lost what they held since. */
  heldSince(): number | undefined {
    return this.heldAt;
  }

  /** Calls `grant` once the gate is open: at once when it is. */
  whenOpen(grant: () => void): void {
    if (this.isOpen()) grant();
    else this.waiting.add(grant);
  }

  /** Forgets a grant that no longer applies (its subscription ended). */
  forget(grant: () => void): void {
    this.waiting.delete(grant);
  }

  hold(): void {
    if (this.heldAt !== undefined || this.spent) return;
    this.heldAt = this.now();
    this.limitTimer = setTimeout(() => this.open(true), this.options.holdLimitMs);
    this.limitTimer.unref();
    this.options.onHold?.();
  }

  /** The buffer has room again. */
  release(): void {
    this.spent = false;
    if (this.heldAt !== undefined) this.open(false);
  }

  private open(overLimit: boolean): void {
    const heldMs = this.now() - (this.heldAt ?? this.now());
    clearTimeout(this.limitTimer);
    this.heldAt = undefined;
    this.spent = overLimit;
    this.options.onRelease?.(heldMs, overLimit);
    const grants = [...this.waiting];
    this.waiting.clear();
    for (const grant of grants) grant();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
