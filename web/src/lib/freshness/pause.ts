type Listener = () => void;

export interface PauseSnapshot {
  readonly paused: boolean;
  /** Signals and events that arrived while paused: what Resume will bring in. */
  readonly waiting: number;
}

/**
 * Pause (ADR-0052): one module-level signal, memory only, since a persisted pause outlives the
 * reason it was set. While paused nothing polls and stream signals only mark data stale.
 */
export class PauseSignal {
  private snapshot: PauseSnapshot = { paused: false, waiting: 0 };
  private readonly listeners = new Set<Listener>();
  private readonly resumeHandlers = new Set<Listener>();

  get = (): PauseSnapshot => this.snapshot;

  isPaused(): boolean {
    return this.snapshot.paused;
  }

  pause(): void {
    if (!this.snapshot.paused) this.set({ paused: true, waiting: 0 });
  }

  /** Resumes, then runs the resume handlers once (the refetch of what went stale). */
  resume(): void {
    if (!this.snapshot.paused) return;
    this.set({ paused: false, waiting: 0 });
    for (const handler of [...this.resumeHandlers]) handler();
  }

  toggle(): void {
    if (this.snapshot.paused) this.resume();
    else this.pause();
  }

  /** Counts an update held back by the pause. */
  noteWaiting(count = 1): void {
    if (this.snapshot.paused) this.set({ paused: true, waiting: this.snapshot.waiting + count });
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  onResume(handler: Listener): () => void {
    this.resumeHandlers.add(handler);
    return () => this.resumeHandlers.delete(handler);
  }

  private set(snapshot: PauseSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of [...this.listeners]) listener();
  }
}

export const pauseSignal = new PauseSignal();
