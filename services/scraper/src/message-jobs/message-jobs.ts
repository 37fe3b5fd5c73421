import {
  type MessageJob,
  type MessageJobImpact,
  type MessageJobImpactCall,
  type MessageJobNode,
  type MessageJobStartCall,
  type MessageJobStatus,
} from '@artemis-studio/contracts';
import type { JobProgress, NewMessageJob } from '@artemis-studio/db';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import { isBusy } from '../broker-actions/queue-action-calls';
import type { ActionJolokia } from '../broker-actions/queue-actions';
import { type QueueHolder } from '../broker-actions/queue-holders';
import { chosenBatches, filteredBatches } from './message-job-batches';
import { MessageJobPlanner, sumOf, type Plan } from './message-job-planner';
import { inBatches } from './message-job-calls';
import { JobPace } from './job-pace';
import { gateRead, gateReason, StartGate } from './start-gate';
import { interrupted, sleep, stopOf, type Stop } from './job-stops';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';

/** Where a job's progress is kept (`message_job`, through MessageJobRepository). */
export interface JobStore {
  insert(job: NewMessageJob): Promise<MessageJob>;
  progress(id: string, nodes: MessageJobNode[]): Promise<JobProgress>;
  waiting(id: string, reason: string | null): Promise<JobProgress>;
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
  /** How often a job at its start gate looks again for a consumer on the queue the messages go to. */
  gateCheckMs: number;
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
const DEFAULT_PACING: JobPacing = {
  pauseMs: 5,
  busyRetries: 5,
  busyWaitMs: 2_000,
  signalEveryMs: 500,
  gateCheckMs: 2_000,
};

/** One node's part of a job as it runs: the counts of every node, this one's place, the job's pace. */
interface NodePart {
  holder: QueueHolder;
  nodes: MessageJobNode[];
  i: number;
  pace: JobPace;
}

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

  private readonly planner: MessageJobPlanner;
  private readonly startGate: StartGate;

  constructor(private readonly deps: MessageJobDeps) {
    this.pacing = { ...DEFAULT_PACING, ...deps.pacing };
    this.planner = new MessageJobPlanner(deps);
    this.startGate = new StartGate({
      store: deps.store,
      signal: deps.signal,
      read: async (holder, request) => {
        const answer = await this.call(holder, [request]);
        return 'lost' in answer ? undefined : answer.answers[0];
      },
      checkEveryMs: this.pacing.gateCheckMs,
    });
  }

  /** How many messages the job would touch on each node, as the broker counts them now. */
  impact(cluster: ClusterNodes, call: MessageJobImpactCall): Promise<MessageJobImpact> {
    return this.planner.impact(cluster, call);
  }

  /** Checks the job, records it, and starts it; answered at once with the job as it starts. */
  async start(cluster: ClusterNodes, call: MessageJobStartCall, stopped: AbortSignal): Promise<MessageJob> {
    const plan = await this.planner.plan(cluster, call);
    const planned = plan.job.messageIds
      ? null
      : sumOf((await this.planner.count(plan.holders, plan.selector)).map((c) => c.messages));
    const started = await this.deps.store.insert({
      id: call.jobId,
      clusterId: call.clusterId,
      queue: call.queue,
      kind: plan.job.kind,
      filter: plan.job.filter ?? null,
      origin: plan.job.origin ?? null,
      chosen: plan.job.messageIds?.length ?? null,
      // A move to another node keeps the queue; the binding it goes through is the broker's detail.
      target: plan.job.toNode ? call.queue : plan.target,
      quarantine: plan.job.quarantine !== undefined,
      toNode: plan.job.toNode ?? null,
      batchSize: plan.job.batchSize,
      rate: plan.job.rate ?? null,
      waitForConsumer: plan.job.waitForConsumer ?? false,
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

  private async run(plan: Plan, nodes: MessageJobNode[], stopped: AbortSignal): Promise<void> {
    let stop: Stop | null = null;
    const pace = new JobPace(plan.job.rate ?? null, Date.now());
    try {
      for (const [i, holder] of plan.holders.entries()) {
        stop = await this.onNode(plan, { holder, nodes, i, pace }, stopped);
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

  /** A node's part of the job: its batches in turn, each counted and written before the next. */
  private async onNode(plan: Plan, part: NodePart, stopped: AbortSignal): Promise<Stop | null> {
    const { holder, nodes, i, pace } = part;
    const batches = plan.job.messageIds ? chosenBatches(plan, holder) : filteredBatches(plan, holder);
    // The start gate's look at the queue the messages go to rides in each batch's call, after the
    // batch: the node's call budget (shared with polling) pays one call per batch, not two.
    const gate = plan.job.waitForConsumer && plan.target ? plan.target : null;
    let gateSays: string | null | undefined;
    for (const batch of batches) {
      if (stopped.aborted) return interrupted();
      if (gate) {
        const stop = await this.startGate.wait(plan, { ...part, gate, known: gateSays }, stopped);
        if (stop) return stop;
      }
      const answer = await this.call(
        holder,
        gate ? [...batch.requests, gateRead(holder, gate)] : batch.requests,
      );
      if ('lost' in answer)
        return { status: 'failed', error: `${holder.node.name}: ${answer.lost}`, inFlight: batch.inFlight };
      const answers = gate ? answer.answers.slice(0, -1) : answer.answers;
      if (gate) gateSays = gateReason(holder, gate, answer.answers.at(-1));
      const outcome = batch.outcome(answers);
      if ('refused' in outcome) {
        nodes[i] = { ...nodes[i], error: outcome.refused };
        return { status: 'failed', error: `${holder.node.name}: ${outcome.refused}` };
      }
      nodes[i] = {
        ...nodes[i],
        processed: nodes[i].processed + outcome.processed,
        notReached: nodes[i].notReached + outcome.notReached,
        batches: nodes[i].batches + 1,
        error: outcome.error ?? nodes[i].error,
      };
      const progress = await this.record(plan, nodes);
      if (outcome.error) return { status: 'failed', error: `${holder.node.name}: ${outcome.error}` };
      if (outcome.last) return null;
      const stop = stopOf(progress);
      if (stop) return stop;
      // A pause for other tools' calls, or longer where the job's rate asks for it.
      await sleep(Math.max(this.pacing.pauseMs, pace.delayAfter(outcome.processed, Date.now())));
    }
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
