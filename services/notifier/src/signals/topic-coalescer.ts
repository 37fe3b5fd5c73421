import type { SignalTopic } from '@artemis-studio/contracts';

/**
 * At most one signal per (cluster, topic) per coalescing window (ADR-0027): the first touch
 * schedules the signal at the end of the window, later touches in the window are absorbed. The
 * window is read at each first touch, so a changed setting applies without a restart.
 */
export class TopicCoalescer {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private absorbedCount = 0;

  constructor(
    private readonly windowMs: () => number,
    private readonly emit: (clusterId: string, topic: SignalTopic) => void,
  ) {}

  touch(clusterId: string, topic: SignalTopic): void {
    const key = `${clusterId}|${topic}`;
    if (this.pending.has(key)) {
      this.absorbedCount++;
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(key);
      this.emit(clusterId, topic);
    }, this.windowMs());
    this.pending.set(key, timer);
  }

  /** Touches absorbed into an already scheduled signal. */
  get absorbed(): number {
    return this.absorbedCount;
  }

  stop(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
