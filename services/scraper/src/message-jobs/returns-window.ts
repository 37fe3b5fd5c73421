import type { ReturnGuard } from '@artemis-studio/contracts';

interface Sample {
  at: number;
  sent: number;
  returned: number;
}

/**
 * A job's return guard (issue 60): after each batch it is told how many messages the job has sent
 * and how many have come back (dead-lettered again from where they were sent), and says when more
 * than `percent` of what was sent in the last `withinSeconds` came back in that time. A message
 * sent just before the window that returns inside it counts against the window: the guard errs
 * towards pausing.
 */
export class ReturnsWindow {
  private readonly samples: Sample[];

  constructor(
    private readonly guard: ReturnGuard,
    now: number,
    /** The totals it starts from: a resumed job's, so what came back before the pause is not counted again. */
    from: { sent: number; returned: number } = { sent: 0, returned: 0 },
  ) {
    this.samples = [{ at: now, ...from }];
  }

  /** The totals after a batch; why the job should pause, or null. */
  observe(at: number, sent: number, returned: number): string | null {
    this.samples.push({ at, sent, returned });
    const since = at - this.guard.withinSeconds * 1000;
    // The newest sample at or before the window's start is its baseline; older ones are done with.
    while (this.samples.length > 2 && this.samples[1].at <= since) this.samples.shift();
    const base = this.samples[0];
    const sentIn = sent - base.sent;
    const returnedIn = returned - base.returned;
    if (sentIn <= 0 || returnedIn * 100 <= this.guard.percent * sentIn) return null;
    return (
      `${returnedIn} of the ${sentIn} messages sent in the last ${this.guard.withinSeconds} s came back ` +
      `(more than ${this.guard.percent}%)`
    );
  }
}
