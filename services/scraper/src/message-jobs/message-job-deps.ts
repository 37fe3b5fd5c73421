import type { MessageJob, MessageJobNode, MessageJobStatus } from '@artemis-studio/contracts';
import type { JobProgress, MessageJobRepository, NewMessageJob } from '@artemis-studio/db';
import type { BrokerLanes } from '../jolokia/broker-lanes';
import type { ActionJolokia } from '../broker-actions/queue-actions';

/** Where a job's progress is kept (`message_job`, through MessageJobRepository). */
export interface JobStore {
  insert(job: NewMessageJob): Promise<MessageJob>;
  progress(id: string, nodes: MessageJobNode[]): Promise<JobProgress>;
  waiting(id: string, reason: string | null): Promise<JobProgress>;
  finish(
    id: string,
    end: { status: MessageJobStatus; nodes: MessageJobNode[]; error: string | null; inFlight?: number },
  ): Promise<MessageJob | null>;
  withRequest: MessageJobRepository['withRequest'];
  resume: MessageJobRepository['resume'];
}

export interface JobPacing {
  /** A pause between two batches, so polling and other management calls get the broker's lock. */
  pauseMs: number;
  /** How often a batch refused as busy (another tool holds the broker's lock) is tried again. */
  busyRetries: number;
  busyWaitMs: number;
  /** At most one `jobs` signal per job this often while it runs (and one as it ends). */
  signalEveryMs: number;
  /** How often a job at its start gate looks again for a consumer on the queue the messages go to. */
  gateCheckMs: number;
  /** How long a job its return guard paused waits for the last batch's returns before its last look. */
  returnSettleMs: number;
}

export interface MessageJobDeps {
  jolokia: ActionJolokia;
  lanes: BrokerLanes;
  store: JobStore;
  signal: (clusterId: string) => void;
  log: { warn(message: string): void };
  pacing?: Partial<JobPacing>;
}

// The lanes already let a queued browse in between two batches; the pause is for other tools.
export const DEFAULT_PACING: JobPacing = {
  pauseMs: 5,
  busyRetries: 5,
  busyWaitMs: 2_000,
  signalEveryMs: 500,
  gateCheckMs: 2_000,
  returnSettleMs: 1_000,
};

/** A count summed over a job's nodes. */
export const totalOf = (nodes: MessageJobNode[], count: 'processed' | 'returned'): number =>
  nodes.reduce((total, n) => total + n[count], 0);
