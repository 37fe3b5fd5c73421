import { findQueue, parseFound, type QueueState } from '../broker-actions/queue-action-calls';
import type { QueueHolder } from '../broker-actions/queue-holders';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import type { JobPace } from './job-pace';
import { interrupted, sleep, stopOf, type Stop } from './job-stops';
import type { JobStore } from './message-jobs';

interface GateDeps {
  store: Pick<JobStore, 'waiting'>;
  signal: (clusterId: string) => void;
  /** One read on the holder's node, in its lane; undefined when it got no answer. */
  read(holder: QueueHolder, request: JolokiaRequest): Promise<JolokiaResponse | undefined>;
  /** How often a job at its gate looks again. */
  checkEveryMs: number;
}

/** The read that tells whether the queue the messages go to can take them. */
export const gateRead = (holder: QueueHolder, gate: string): JolokiaRequest => findQueue(holder.broker, gate);

/** Why the queue the messages go to cannot take them, as the node answered (or did not), or null. */
export function gateReason(
  holder: QueueHolder,
  gate: string,
  answer: JolokiaResponse | undefined,
): string | null {
  const where = `on ${holder.node.name}`;
  if (!answer) return `${holder.node.name} did not answer whether ${gate} has a consumer`;
  let found: QueueState | null;
  try {
    found = parseFound(answer);
  } catch (err) {
    return `${holder.node.name} could not say whether ${gate} has a consumer: ${(err as Error).message}`;
  }
  if (found === null) return `${gate} is not ${where}`;
  if (found.paused === true) return `${gate} is paused ${where}`;
  if (!found.consumers) return `no consumer on ${gate} ${where}`;
  return null;
}

/**
 * A job's start gate (issue 60): before each batch, the queue the messages go to must have a
 * consumer and not be paused on the node the batch runs on. While it cannot, the job waits and
 * says why (signalled as the reason changes), and can be cancelled or taken over meanwhile.
 */
export class StartGate {
  constructor(private readonly deps: GateDeps) {}

  /**
   * Resolves once the gate is open (null), or with how the job stopped while waiting. `known` is
   * what the previous batch's call saw (undefined before the first). The pace starts again once a
   * closed gate opens, so the wait is not made up for in a burst.
   */
  async wait(
    job: { id: string; clusterId: string },
    at: { holder: QueueHolder; gate: string; known: string | null | undefined; pace: JobPace },
    stopped: AbortSignal,
  ): Promise<Stop | null> {
    let said: string | null = null;
    let why = at.known;
    for (;;) {
      if (stopped.aborted) return interrupted();
      if (why === undefined)
        why = gateReason(at.holder, at.gate, await this.deps.read(at.holder, gateRead(at.holder, at.gate)));
      if (why === null && said === null) return null;
      if (why !== said) {
        const stop = stopOf(await this.deps.store.waiting(job.id, why));
        this.deps.signal(job.clusterId);
        if (stop) return stop;
        said = why;
      }
      if (why === null) {
        at.pace.restart(Date.now());
        return null;
      }
      await sleep(this.deps.checkEveryMs);
      // Written again while waiting: the answer says whether the job was cancelled meanwhile.
      const stop = stopOf(await this.deps.store.waiting(job.id, why));
      if (stop) return stop;
      why = undefined;
    }
  }
}
