import type { MessageJobStatus } from '@artemis-studio/contracts';
import type { JobProgress } from '@artemis-studio/db';

/** How a node's part of a job ended, when it did not simply finish. */
export interface Stop {
  status: Exclude<MessageJobStatus, 'running' | 'done'>;
  error: string | null;
  /** The last call's outcome is unknown: at most this many more may have been processed. */
  inFlight?: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Stopped when taken over or cancelled, as the job's last record says. */
export function stopOf(progress: JobProgress): Stop | null {
  if (progress.interrupted) return takenOver();
  if (progress.cancelRequested) return { status: 'cancelled', error: null };
  return null;
}

export const interrupted = (): Stop => ({
  status: 'interrupted',
  error: 'this replica let the cluster go (shutting down, or its lease was lost) between two batches',
});

/** Another replica owns the cluster now and has declared the job interrupted: its account stands. */
const takenOver = (): Stop => ({ status: 'interrupted', error: null });
