import { RpcError } from '@artemis-studio/bus';
import {
  OWNER_FAILURES,
  type BrokerCount,
  type MessageJob,
  type MessageJobImpact,
  type MessageJobImpactCall,
  type MessageJobNode,
  type MessageJobStartCall,
  type MessageJobStatus,
  type StartMessageJobRequest,
} from '@artemis-studio/contracts';
import type { JobProgress, NewMessageJob } from '@artemis-studio/db';
import { count } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL, type BrokerLanes } from '../broker-actions/broker-lanes';
import { findQueue, isBusy, parseFound, quoted } from '../broker-actions/queue-action-calls';
import type { ActionCluster, ActionJolokia } from '../broker-actions/queue-actions';
import { addressSettings, managementRefusal, settingsLimit } from '../broker-actions/queue-browse';
import { chosenHolder, queueHolders, type QueueHolder } from '../broker-actions/queue-holders';
import {
  batchCount,
  chosenCall,
  countCall,
  createQuarantine,
  filterBatch,
  inBatches,
  selectorOf,
  targetOf,
} from './message-job-calls';

/** Where a job's progress is kept (`message_job`, through MessageJobQueries). */
export interface JobStore {
  insert(job: NewMessageJob): Promise<MessageJob>;
  progress(id: string, nodes: MessageJobNode[]): Promise<JobProgress>;
  finish(
    id: string,
    end: { status: MessageJobStatus; nodes: MessageJobNode[]; error: string | null; inFlight?: number },
  ): Promise<MessageJob | null>;
}

export interface JobPacing {
  /** A pause between two batches, so polling and other management calls get the broker's lock. */
  pauseMs: number;
  /** How often a batch refused as busy (another tool holds the broker's lock) is tried again. */
  busyRetries: number;
  busyWaitMs: number;
  /** At most one `jobs` signal per job this often while it runs (and one as it ends). */
  signalEveryMs: number;
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
const DEFAULT_PACING: JobPacing = { pauseMs: 5, busyRetries: 5, busyWaitMs: 2_000, signalEveryMs: 500 };

/** At most this many chosen messages go to the broker in one call (each scans the queue in memory). */
const CHOSEN_PER_CALL = 100;

/** How a node's part of a job ended, when it did not simply finish. */
interface Stop {
  status: Exclude<MessageJobStatus, 'running' | 'done'>;
  error: string | null;
  /** The last call's outcome is unknown: at most this many more may have been processed. */
  inFlight?: number;
}

/** What a job runs with, worked out and checked before it starts. */
interface Plan {
  job: StartMessageJobRequest;
  id: string;
  clusterId: string;
  holders: QueueHolder[];
  selector: string;
  target: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Moves, copies, retries and deletes of a queue's messages (ADR-0012). A job is checked and
 * counted first (a filter the broker rejects, or a target that is nowhere, is refused before
 * anything changes), recorded, and then run in bounded batches in the broker's lane, each batch's
 * count written before the next starts: a cancel, a crash or a lost lease leaves an exact account.
 */
export class MessageJobs {
  private readonly pacing: JobPacing;
  private readonly runs = new Set<Promise<void>>();
  /** When each running job last signalled its progress. */
  private readonly lastSignal = new Map<string, number>();

  constructor(private readonly deps: MessageJobDeps) {
    this.pacing = { ...DEFAULT_PACING, ...deps.pacing };
  }

  /** How many messages the job would touch on each node, as the broker counts them now. */
  async impact(cluster: ActionCluster, call: MessageJobImpactCall): Promise<MessageJobImpact> {
    const holders = await queueHolders(this.deps.jolokia, cluster, call.queue);
    chosenHolder(holders, call.queue);
    const selector = selectorOf(call);
    const counted = await this.count(holders, selector);
    return {
      clusterId: call.clusterId,
      queue: call.queue,
      kind: call.kind,
      filter: selector || null,
      messages: sumOf(counted.map((c) => c.messages)),
      nodes: counted,
      browseLimit: counted.find((c) => c.browseLimit !== null)?.browseLimit ?? null,
    };
  }

  /** Checks the job, records it, and starts it; answered at once with the job as it starts. */
  async start(cluster: ActionCluster, call: MessageJobStartCall, stopped: AbortSignal): Promise<MessageJob> {
    const plan = await this.plan(cluster, call);
    const planned = plan.job.messageIds
      ? null
      : sumOf((await this.count(plan.holders, plan.selector)).map((c) => c.messages));
    const started = await this.deps.store.insert({
      id: call.jobId,
      clusterId: call.clusterId,
      queue: call.queue,
      kind: plan.job.kind,
      filter: plan.job.filter ?? null,
      origin: plan.job.origin ?? null,
      chosen: plan.job.messageIds?.length ?? null,
      target: plan.target,
      quarantine: plan.job.quarantine !== undefined,
      batchSize: plan.job.batchSize,
      planned,
      nodes: plan.holders.map((h) => ({
        node: h.node.name,
        processed: 0,
        batches: 0,
        notReached: 0,
        error: null,
      })),
      cancellable: inBatches(plan.job),
      requestedBy: call.requestedBy,
    });
    this.deps.signal(call.clusterId);
    const run = this.run(plan, started.nodes, stopped).catch((err: Error) =>
      this.deps.log.warn(`message job ${plan.id} could not record its end: ${err.message}`),
    );
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
    return started;
  }

  /** Jobs running in this replica now. */
  running(): number {
    return this.runs.size;
  }

  /** Resolves when every job running now has ended (shutdown, tests). */
  async whenIdle(): Promise<void> {
    await Promise.all([...this.runs]);
  }

  private async plan(cluster: ActionCluster, call: MessageJobStartCall): Promise<Plan> {
    const { job, queue } = call;
    const target = targetOf(job);
    if (target === queue)
      throw new RpcError(OWNER_FAILURES.invalid, 'the messages are in that queue already: choose another');
    const holders = await queueHolders(this.deps.jolokia, cluster, queue);
    const working = job.messageIds ? [chosenHolder(holders, queue, job.node)] : holders;
    chosenHolder(working, queue);
    if (target) await this.readyTarget(working, target, job.quarantine !== undefined);
    return {
      job,
      id: call.jobId,
      clusterId: call.clusterId,
      holders: working,
      selector: selectorOf(job),
      target,
    };
  }

  /** The target is on every node the job runs on; a quarantine is made where it is missing. */
  private async readyTarget(holders: QueueHolder[], target: string, quarantine: boolean): Promise<void> {
    for (const h of holders) {
      const request: JolokiaRequest = quarantine
        ? createQuarantine(`org.apache.activemq.artemis:broker=${quoted(h.broker)}`, target)
        : findQueue(h.broker, target);
      const [answer] = await this.deps.lanes.run(h.target.nodeKey, () =>
        this.deps.jolokia.bulk(h.target, [request], MANAGEMENT_CALL),
      );
      if (quarantine && answer.status !== 200)
        throw managementRefusal(answer.error, `to make the quarantine queue '${target.slice(0, 200)}'`);
      if (!quarantine && (answer.status === 404 || (answer.status === 200 && !parseFound(answer))))
        throw new RpcError(
          OWNER_FAILURES.notFound,
          `queue '${target.slice(0, 200)}', where the messages would go, is not on node ${h.node.name}`,
        );
    }
  }

  /** Each node's count for the selector, and the browse limit that caps a filtered one. */
  private async count(holders: QueueHolder[], selector: string) {
    return Promise.all(
      holders.map(async (h) => {
        const [counted, settings] = await this.deps.lanes.run(h.target.nodeKey, () =>
          this.deps.jolokia.bulk(
            h.target,
            [countCall(h.found.mbean, selector), addressSettings(h.broker, h.found.address ?? '')],
            MANAGEMENT_CALL,
          ),
        );
        if (counted.status !== 200) throw managementRefusal(counted.error, 'the count');
        const browseLimit = settingsLimit(settings);
        const depth = h.found.depth;
        const n = count(counted.value) ?? 0;
        // countMessages(filter) looks at the first `browseLimit` messages only.
        const capped = selector !== '' && (browseLimit === null || depth === null || depth > browseLimit);
        return { node: h.node.name, messages: { count: n, atLeast: capped }, depth, browseLimit };
      }),
    );
  }

  private async run(plan: Plan, nodes: MessageJobNode[], stopped: AbortSignal): Promise<void> {
    let stop: Stop | null = null;
    try {
      for (const [i, holder] of plan.holders.entries()) {
        stop = plan.job.messageIds
          ? await this.chosenOnNode(plan, holder, nodes, i, stopped)
          : await this.filteredOnNode(plan, holder, nodes, i, stopped);
        if (stop) break;
      }
    } catch (err) {
      // The batch was counted in `nodes`; only writing it down failed (PostgreSQL away).
      stop = { status: 'failed', error: `its progress could not be recorded: ${(err as Error).message}` };
    } finally {
      this.lastSignal.delete(plan.id);
    }
    await this.deps.store.finish(plan.id, {
      status: stop?.status ?? 'done',
      nodes,
      error: stop?.error ?? null,
      inFlight: stop?.inFlight,
    });
    this.deps.signal(plan.clusterId);
  }

  /** Batches by filter on one node until the broker finds fewer than a batch, or the job is stopped. */
  private async filteredOnNode(
    plan: Plan,
    holder: QueueHolder,
    nodes: MessageJobNode[],
    i: number,
    stopped: AbortSignal,
  ): Promise<Stop | null> {
    const request = filterBatch(holder.found.mbean, plan.job, plan.selector, plan.target);
    const batched = inBatches(plan.job);
    for (;;) {
      if (stopped.aborted) return interrupted();
      const answer = await this.call(holder, [request]);
      if ('lost' in answer)
        return {
          status: 'failed',
          error: `${holder.node.name}: ${answer.lost}`,
          // A one-call delete may have taken anything up to what the queue held when it was looked up.
          inFlight: batched ? plan.job.batchSize : (holder.found.depth ?? plan.job.batchSize),
        };
      const done = batchCount(answer.answers[0]);
      if ('error' in done) {
        nodes[i] = { ...nodes[i], error: done.error };
        return { status: 'failed', error: `${holder.node.name}: ${done.error}` };
      }
      nodes[i] = {
        ...nodes[i],
        processed: nodes[i].processed + done.processed,
        batches: nodes[i].batches + 1,
      };
      const progress = await this.record(plan, nodes);
      if (!batched || done.processed < plan.job.batchSize) return null;
      const stop = await this.beforeNextBatch(progress);
      if (stop) return stop;
    }
  }

  /** Chosen messages by id, a call of at most CHOSEN_PER_CALL at a time; false is "not reached". */
  private async chosenOnNode(
    plan: Plan,
    holder: QueueHolder,
    nodes: MessageJobNode[],
    i: number,
    stopped: AbortSignal,
  ): Promise<Stop | null> {
    const ids = plan.job.messageIds ?? [];
    const perCall = Math.min(plan.job.batchSize, CHOSEN_PER_CALL);
    for (let at = 0; at < ids.length; at += perCall) {
      if (stopped.aborted) return interrupted();
      const chunk = ids.slice(at, at + perCall);
      const answer = await this.call(
        holder,
        chunk.map((id) => chosenCall(holder.found.mbean, plan.job.kind, id, plan.target)),
      );
      if ('lost' in answer)
        return { status: 'failed', error: `${holder.node.name}: ${answer.lost}`, inFlight: chunk.length };
      const refused = answer.answers.find((a) => a.status !== 200);
      const reached = answer.answers.filter((a) => a.status === 200 && a.value === true).length;
      const missed = answer.answers.filter((a) => a.status === 200 && a.value !== true).length;
      nodes[i] = {
        ...nodes[i],
        processed: nodes[i].processed + reached,
        notReached: nodes[i].notReached + missed,
        batches: nodes[i].batches + 1,
        error: refused ? (refused.error ?? `the broker answered status ${refused.status}`) : nodes[i].error,
      };
      const progress = await this.record(plan, nodes);
      if (refused) return { status: 'failed', error: `${holder.node.name}: ${nodes[i].error}` };
      if (at + perCall >= ids.length) return null;
      const stop = await this.beforeNextBatch(progress);
      if (stop) return stop;
    }
    return null;
  }

  /** Between two batches: stopped when taken over or cancelled, else a pause for other tools' calls. */
  private async beforeNextBatch(progress: JobProgress): Promise<Stop | null> {
    if (progress.interrupted) return takenOver();
    if (progress.cancelRequested) return { status: 'cancelled', error: null };
    await sleep(this.pacing.pauseMs);
    return null;
  }

  /**
   * One call in the broker's lane. Busy (another tool holds the broker's management lock) is tried
   * again after a wait; a call that got no answer is `lost`: it may or may not have been carried out.
   */
  private async call(
    holder: QueueHolder,
    requests: JolokiaRequest[],
  ): Promise<{ answers: JolokiaResponse[] } | { lost: string }> {
    for (let attempt = 0; ; attempt++) {
      let answers: JolokiaResponse[];
      try {
        answers = await this.deps.lanes.run(holder.target.nodeKey, () =>
          this.deps.jolokia.bulk(holder.target, requests, MANAGEMENT_CALL),
        );
      } catch (err) {
        return { lost: (err as Error).message };
      }
      const busy = answers.some((a) => a.status !== 200 && isBusy(a.error));
      if (!busy || attempt >= this.pacing.busyRetries) return { answers };
      await sleep(this.pacing.busyWaitMs);
    }
  }

  /** Writes the nodes' counts, and signals the progress (at most once per `signalEveryMs`). */
  private async record(plan: Plan, nodes: MessageJobNode[]): Promise<JobProgress> {
    const progress = await this.deps.store.progress(plan.id, nodes);
    const now = Date.now();
    if (now - (this.lastSignal.get(plan.id) ?? 0) >= this.pacing.signalEveryMs) {
      this.lastSignal.set(plan.id, now);
      this.deps.signal(plan.clusterId);
    }
    return progress;
  }
}

const interrupted = (): Stop => ({
  status: 'interrupted',
  error: 'this replica let the cluster go (shutting down, or its lease was lost) between two batches',
});

/** Another replica owns the cluster now and has declared the job interrupted: its account stands. */
const takenOver = (): Stop => ({ status: 'interrupted', error: null });

/** The sum of the nodes' counts: a lower bound when any of them is. */
function sumOf(counts: BrokerCount[]): BrokerCount {
  return {
    count: counts.reduce((sum, c) => sum + c.count, 0),
    atLeast: counts.some((c) => c.atLeast),
  };
}
