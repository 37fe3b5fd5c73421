import type { StartMessageJobRequest } from '@artemis-studio/contracts';
import { findQueue, parseFound, type QueueState } from '../broker-actions/queue-action-calls';
import type { QueueHolder } from '../broker-actions/queue-holders';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { count } from '../jolokia/attribute-values';
import type { JobPace } from './job-pace';
import { interrupted, sleep, stopOf, type Stop } from './job-stops';
import type { JobStore } from './message-job-deps';

/** One read on the holder's node, in its lane; undefined when it got no answer. */
type Read = (holder: QueueHolder, request: JolokiaRequest) => Promise<JolokiaResponse | undefined>;

interface GateDeps {
  store: Pick<JobStore, 'waiting'>;
  signal: (clusterId: string) => void;
  read: Read;
  /** How often a job at its gate looks again. */
  checkEveryMs: number;
}

/**
 * The look at the queue the messages go to: whether it can take them (its consumers, paused), and
 * how many messages it has dead-lettered (`MessagesKilled`), which the return guard counts from.
 */
const gateRead = (holder: QueueHolder, gate: string): JolokiaRequest =>
  findQueue(holder.broker, gate, ['MessagesKilled']);

/** How many messages the queue has dead-lettered since the broker started, as `gateRead` found it. */
function killedOf(answer: JolokiaResponse | undefined): number | null {
  if (answer?.status !== 200) return null;
  const [attributes] = Object.values((answer.value ?? {}) as Record<string, Record<string, unknown>>);
  return attributes ? count(attributes.MessagesKilled) : null;
}

/** Why the queue the messages go to cannot take them, as the node answered (or did not), or null. */
function gateReason(holder: QueueHolder, gate: string, answer: JolokiaResponse | undefined): string | null {
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

/**
 * What a job watches on the queue its messages go to, on one node: its gate (consumers, paused)
 * and how many messages it has dead-lettered since the node's part began (the return guard's
 * count). The look rides in each batch's call, after the batch.
 */
export class DestinationWatch {
  /** What the last look said of the gate: undefined before the first look. */
  gateSays: string | null | undefined;
  /** Dead-lettered by the queue since the first look that could count them. */
  returned = 0;
  private baseline: number | null = null;

  constructor(
    readonly holder: QueueHolder,
    readonly queue: string,
    private readonly read: Read,
  ) {}

  /**
   * The look for a job's start gate or return guard, or null when it has neither. A guard's first
   * look, before any batch, is what its count starts from: a job it cannot count for fails.
   */
  static async of(
    job: Pick<StartMessageJobRequest, 'waitForConsumer' | 'pauseOnReturns'>,
    target: string | null,
    holder: QueueHolder,
    read: Read,
  ): Promise<DestinationWatch | Stop | null> {
    if (!target || (!job.waitForConsumer && !job.pauseOnReturns)) return null;
    const watch = new DestinationWatch(holder, target, read);
    if (!job.pauseOnReturns) return watch;
    await watch.look();
    if (watch.counting) return watch;
    return {
      status: 'failed',
      error: `${holder.node.name}: could not read how many messages ${target} dead-letters, so the return guard cannot watch it`,
    };
  }

  /** A look of its own, outside a batch's call. */
  async look(): Promise<void> {
    this.saw(await this.read(this.holder, this.request));
  }

  get request(): JolokiaRequest {
    return gateRead(this.holder, this.queue);
  }

  /** Whether a look has counted the queue's dead-lettered messages yet. */
  get counting(): boolean {
    return this.baseline !== null;
  }

  /** Takes a look's answer (undefined when the call got none). */
  saw(answer: JolokiaResponse | undefined): void {
    this.gateSays = gateReason(this.holder, this.queue, answer);
    const killed = killedOf(answer);
    if (killed === null) return;
    this.baseline ??= killed;
    // A count that went back (the broker restarted) starts again from what was already counted.
    if (killed - this.baseline < this.returned) this.baseline = killed - this.returned;
    this.returned = killed - this.baseline;
  }
}
