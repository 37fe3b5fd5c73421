import type { BusMetrics } from './bus';
import { PULL_SILENCE_LIMIT_MS } from './pulls';

export interface BusLog {
  warn(message: string): void;
  error(message: string): void;
}

/**
 * How every part of the bus reports what it could not deliver: a malformed message is counted
 * and skipped (never a crash, never a redelivery loop), a failing handler counted and logged.
 */
export class BusReporter {
  constructor(
    readonly metrics: BusMetrics,
    readonly log: BusLog,
  ) {}

  malformed(channel: string, subject: string, reason: string): void {
    this.metrics.malformed(channel);
    this.log.warn(`bus: skipped a malformed ${channel} message on ${subject}: ${reason}`);
  }

  /**
   * The server neither delivered nor ended a consumer's pulls for PULL_SILENCE_LIMIT_MS: NATS
   * restarted, or it dropped them without a word. Nothing came in meanwhile, so it is said.
   */
  pullsGivenUp(consumer: string, owed: number): void {
    this.metrics.pullsGivenUp(consumer);
    this.log.warn(
      `bus: consumer ${consumer} heard nothing of its pulls for ${PULL_SILENCE_LIMIT_MS / 1000} s ` +
        `(${owed} messages asked for and not delivered): counted them gone and pulled again`,
    );
  }

  /** Runs a message handler; what it throws or rejects with is counted and logged, never rethrown. */
  runHandler(channel: string, run: () => void | Promise<void>): void {
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
