export interface CreditGateOptions {
  /** The publisher's buffer: credit granted and not yet used, plus what it holds, never exceeds it. */
  capacity: number;
  /**
   * The longest the brokers are made to hold notifications. Past it credit is granted again
   * whatever the buffer holds, and what it cannot take is dropped and counted, as before
   * back-pressure: a temporary subscription queue has no bound of its own, and the broker's memory
   * is the operator's.
   */
  holdLimitMs: number;
  onHold?(): void;
  /** `heldMs` is how long the brokers held; `overLimit` when the limit, not a drained buffer, ended it. */
  onRelease?(heldMs: number, overLimit: boolean): void;
  now?: () => number;
}

/**
 * The AMQP credit every subscription grants, from one pool the size of the publisher's buffer
 * (ADR-0014): credit granted and not yet used plus the events buffered never exceed it, however
 * many subscriptions there are, so the notifier never takes from a broker what it would have to
 * drop. When the pool is empty (NATS away or slow) the brokers hold their notifications in each
 * subscription's queue; the publisher frees the pool as the stream acknowledges.
 */
export class CreditGate {
  private buffered = 0;
  /** Credit granted to the brokers and not yet used. */
  private outstanding = 0;
  private heldAt?: number;
  /** The limit ended the last hold: credit flows whatever the buffer holds until it has drained. */
  private spent = false;
  private limitTimer?: NodeJS.Timeout;
  private readonly waiting = new Set<() => void>();
  /** How many subscriptions draw on the pool. */
  private members = 0;

  constructor(private readonly options: CreditGateOptions) {}

  /** A subscription draws on the pool from now on. Returns its leave, which may be called once. */
  join(): () => void {
    this.members++;
    let left = false;
    return () => {
      if (!left) this.members--;
      left = true;
    };
  }

  /**
   * The credit a subscription is topped up to: `configured`, or its share of half the pool when
   * that is less. Granted credit a node has not used yet stays out of the pool: with the configured
   * window each, 11 subscriptions of 10 on a pool of 100 (the back-pressure test with other
   * clusters) kept more than three quarters of it out with the buffer empty, and a hold then ended
   * only at its limit. Half, so the buffer always has room. Credit granted while fewer shared the
   * pool is not taken back (Artemis left AMQP drains unanswered in that test): a node keeps it until
   * it uses it.
   */
  window(configured: number): number {
    const share = Math.floor(this.options.capacity / (2 * Math.max(1, this.members)));
    return Math.max(1, Math.min(configured, share));
  }

  /**
   * Takes up to `wanted` credit from the pool: what may be granted now (0 while the brokers hold).
   * `bounded`: the subscription reads a queue with a bound of its own (Studio's ring, ADR-0015),
   * which the hold limit does not end: the ring keeps the newest and counts what it discards,
   * where taking them would drop the newest here.
   */
  take(wanted: number, bounded = false): number {
    const room = this.options.capacity - this.buffered - this.outstanding;
    const granted = this.spent && !bounded ? wanted : Math.max(0, Math.min(wanted, room));
    this.outstanding += granted;
    return granted;
  }

  /** Calls `grant` once credit may be taken again: at once when some may be now. */
  whenOpen(grant: () => void, bounded = false): void {
    if ((this.spent && !bounded) || this.room() > 0) return grant();
    this.waiting.add(grant);
    this.hold();
  }

  /** One notification arrived: a credit used. */
  used(): void {
    this.outstanding = Math.max(0, this.outstanding - 1);
  }

  /**
   * A subscription ended with `credit` unused: back to the pool, which may end a hold. Its grant,
   * if waiting, is dropped.
   */
  returned(credit: number, grant: () => void): void {
    this.waiting.delete(grant);
    this.outstanding = Math.max(0, this.outstanding - Math.max(0, credit));
    this.openIfRoom();
  }

  /** The publisher's buffer now holds `size` events; a quarter of the pool free again ends a hold. */
  bufferedNow(size: number): void {
    this.buffered = size;
    if (this.buffered === 0) this.spent = false;
    this.openIfRoom();
  }

  /** When the brokers started holding, while they do: a subscription lost meanwhile lost what they held since. */
  heldSince(): number | undefined {
    return this.heldAt;
  }

  /**
   * A quarter of the pool free again ends a hold, and so does a drained buffer with any room: credit
   * quiet nodes were granted and have not used can keep a quarter from ever being free, and a busy
   * node was then held until the limit with nothing buffered.
   */
  private openIfRoom(): void {
    if (this.heldAt === undefined) return;
    const room = this.room();
    if (room >= this.options.capacity / 4 || (this.buffered === 0 && room > 0)) this.open(false);
  }

  private room(): number {
    return this.options.capacity - this.buffered - this.outstanding;
  }

  private hold(): void {
    if (this.heldAt !== undefined) return;
    this.heldAt = this.now();
    this.limitTimer = setTimeout(() => this.open(true), this.options.holdLimitMs);
    this.limitTimer.unref();
    this.options.onHold?.();
  }

  private open(overLimit: boolean): void {
    const heldMs = this.now() - (this.heldAt ?? this.now());
    clearTimeout(this.limitTimer);
    this.heldAt = undefined;
    if (overLimit) this.spent = true;
    this.options.onRelease?.(heldMs, overLimit);
    const grants = [...this.waiting];
    this.waiting.clear();
    for (const grant of grants) grant();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
