import {
  type MessageJob,
  type MessageJobImpact,
  type MessageJobImpactCall,
  type MessageJobNode,
  type MessageJobResumeCall,
  type MessageJobStartCall,
} from '@artemis-studio/contracts';
import type { JobProgress } from '@artemis-studio/db';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL } from '../jolokia/broker-lanes';
import { isBusy } from '../broker-actions/queue-action-calls';
import { type QueueHolder } from '../broker-actions/queue-holders';
import { chosenBatches, filteredBatches, matchedBatches, retriesByOrigin } from './message-job-batches';
import { MessageJobPlanner, type Plan } from './message-job-planner';
import { JobPace } from './job-pace';
import { DestinationWatch, StartGate } from './start-gate';
import { ReturnsWindow } from './returns-window';
import { dropEmptyTrash } from './trash-queue';
import { retriesEachToOrigin } from './message-job-calls';
import { interrupted, sleep, stopOf, type Stop } from './job-stops';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { resumedJob } from './resumed-job';
import { DEFAULT_PACING, totalOf, type JobPacing, type MessageJobDeps } from './message-job-deps';

/** One node's part of a job as it runs: the counts of every node, this one's place, the job's pace. */
interface NodePart {
  holder: QueueHolder;
  nodes: MessageJobNode[];
  i: number;
  pace: JobPace;
  /** The job's return guard, told every node's totals after each batch. */
  returns: ReturnsWindow | null;
}

/** Paused by the return guard when too many of the job's messages came back, on any node. */
function returnedTooMany({ nodes, returns }: NodePart): Stop | null {
  const why = returns?.observe(Date.now(), totalOf(nodes, 'processed'), totalOf(nodes, 'returned'));
  return why ? { status: 'paused', error: why } : null;
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
      read: this.read,
      checkEveryMs: this.pacing.gateCheckMs,
    });
  }

  /** One read in the node's lane; undefined when it got no answer. */
  private readonly read = async (holder: QueueHolder, request: JolokiaRequest) => {
    const answer = await this.call(holder, [request]);
    return 'lost' in answer ? undefined : answer.answers[0];
  };

  /** How many messages the job would touch on each node, as the broker counts them now. */
  impact(cluster: ClusterNodes, call: MessageJobImpactCall): Promise<MessageJobImpact> {
    return this.planner.impact(cluster, call);
  }

  /** Checks the job, records it, and starts it; answered at once with the job as it starts. */
  async start(cluster: ClusterNodes, call: MessageJobStartCall, stopped: AbortSignal): Promise<MessageJob> {
    const plan = await this.planner.plan(cluster, call);
    const planned = await this.planner.planned(plan);
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
      pauseOnReturns: plan.job.pauseOnReturns ?? null,
      planned,
      bodyFilter: plan.job.bodyFilter ?? null,
      bodyScan: plan.matched?.scan ?? null,
      nodes: plan.holders.map((h) => ({
        node: h.node.name,
        processed: 0,
        batches: 0,
        notReached: 0,
        returned: 0,
        error: null,
      })),
      // Every job runs in batches now, a delete by filter too (trash-queue.ts).
      cancellable: true,
      requestedBy: call.requestedBy,
      request: call.job,
    });
    this.launch(plan, started.nodes, stopped);
    return started;
  }

  /** A paused job planned again over what is left, and run on from its counts (issue 60). */
  async resume(cluster: ClusterNodes, call: MessageJobResumeCall, stopped: AbortSignal): Promise<MessageJob> {
    const { plan, job } = await resumedJob({ store: this.deps.store, planner: this.planner }, cluster, call);
    this.launch(plan, job.nodes, stopped);
    return job;
  }

  private launch(plan: Plan, nodes: MessageJobNode[], stopped: AbortSignal): void {
    this.deps.signal(plan.clusterId);
    const run = this.run(plan, nodes, stopped).catch((err: Error) =>
      this.deps.log.warn(`message job ${plan.id} could not record its end: ${err.message}`),
    );
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
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
    const guard = plan.job.pauseOnReturns;
    // A resumed job's window starts from what it had sent and seen come back before.
    const from = { sent: totalOf(nodes, 'processed'), returned: totalOf(nodes, 'returned') };
    const returns = guard ? new ReturnsWindow(guard, Date.now(), from) : null;
    try {
      for (const [i, holder] of plan.holders.entries()) {
        stop = await this.onNode(plan, { holder, nodes, i, pace, returns }, stopped);
        if (stop) break;
      }
    } catch (err) {
      // The batch was counted in `nodes`; only writing it down failed (PostgreSQL away).
      stop = { status: 'failed', error: `its progress could not be recorded: ${(err as Error).message}` };
    } finally {
      this.lastSignal.delete(plan.id);
    }
    if (plan.trash)
      await dropEmptyTrash(plan.holders, plan.trash, this.read, (holder) =>
        this.deps.log.warn(`message job ${plan.id}: trash queue ${plan.trash} stays on ${holder.node.name}`),
      );
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
    // The watch counts from its first look: what came back before a resume is added to it.
    const returnedBefore = nodes[i].returned;
    const batches = plan.matched
      ? matchedBatches(plan, holder, plan.matched.ids.get(holder.node.name) ?? [])
      : plan.job.messageIds
        ? chosenBatches(plan, holder)
        : retriesEachToOrigin(plan.job)
          ? retriesByOrigin(plan, holder)
          : filteredBatches(plan, holder);
    const watch = await DestinationWatch.of(plan.job, plan.target, holder, this.read);
    if (watch && 'status' in watch) return watch;
    for (const batch of batches) {
      if (stopped.aborted) return interrupted();
      if (watch && plan.job.waitForConsumer) {
        const known = watch.gateSays;
        const stop = await this.startGate.wait(plan, { ...part, gate: watch.queue, known }, stopped);
        if (stop) return stop;
      }
      const answer = await this.call(holder, watch ? [...batch.requests, watch.request] : batch.requests);
      if ('lost' in answer)
        return { status: 'failed', error: `${holder.node.name}: ${answer.lost}`, inFlight: batch.inFlight };
      if (watch) watch.saw(answer.answers.at(-1));
      const outcome = batch.outcome(watch ? answer.answers.slice(0, -1) : answer.answers);
      if ('refused' in outcome) {
        nodes[i] = { ...nodes[i], error: outcome.refused };
        return { status: 'failed', error: `${holder.node.name}: ${outcome.refused}` };
      }
      nodes[i] = {
        ...nodes[i],
        processed: nodes[i].processed + outcome.processed,
        notReached: nodes[i].notReached + outcome.notReached,
        returned: watch ? returnedBefore + watch.returned : nodes[i].returned,
        batches: nodes[i].batches + 1,
        error: outcome.error ?? nodes[i].error,
      };
      const progress = await this.record(plan, nodes);
      if (outcome.error) return { status: 'failed', error: `${holder.node.name}: ${outcome.error}` };
      if (outcome.last) return null;
      const stop = stopOf(progress) ?? returnedTooMany(part);
      if (stop?.status === 'paused' && watch) {
        // What the last batch's consumers rejected comes back just after it: counted before the end.
        await sleep(this.pacing.returnSettleMs);
        await watch.look();
        nodes[i] = { ...nodes[i], returned: returnedBefore + watch.returned };
        await this.record(plan, nodes);
      }
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
