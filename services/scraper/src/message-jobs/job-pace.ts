/**
 * A paced job runs about this many batches a second: enough to spread its messages, and one call
 * each, well within the node's call budget it shares with polling (5 a second by default).
 */
const BATCHES_PER_SECOND = 2;

/** A paced job's batch: at most the batch size asked for, and about half a second at its rate. */
export const pacedBatchSize = (batchSize: number, rate: number | undefined): number =>
  rate === undefined ? batchSize : Math.min(batchSize, Math.max(1, Math.ceil(rate / BATCHES_PER_SECOND)));

/**
 * The clock of a job with a rate: the n-th message goes no earlier than n / rate seconds after the
 * pace began. A job that fell more than a second behind (a slow broker) starts a new pace rather
 * than catching up in a burst, and so does one that waited on its start gate.
 */
export class JobPace {
  private since: number;
  private counted = 0;

  constructor(
    private readonly rate: number | null,
    now: number,
  ) {
    this.since = now;
  }

  /** How long to wait after a batch of `processed` messages, before the next one may go. */
  delayAfter(processed: number, now: number): number {
    if (this.rate === null) return 0;
    this.counted += processed;
    const delay = this.since + (this.counted * 1000) / this.rate - now;
    if (delay < -1000) this.restart(now);
    return Math.max(0, delay);
  }

  restart(now: number): void {
    this.since = now;
    this.counted = 0;
  }
}
