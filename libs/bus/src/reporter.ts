import type { BusMetrics } from './bus';

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
