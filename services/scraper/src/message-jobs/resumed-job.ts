import { RpcError } from '@artemis-studio/bus';
import {
  OWNER_FAILURES,
  type MessageJob,
  type MessageJobNode,
  type MessageJobResumeCall,
} from '@artemis-studio/contracts';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import type { MessageJobPlanner, Plan } from './message-job-planner';
import type { JobStore } from './message-job-deps';

/**
 * A paused job made to run again (issue 60): planned anew from the request it was started with,
 * so that it works on what is left now (what it sent that came back included), checked and
 * counted as a new job is; then recorded as running, its counts running on from where it stopped.
 */
export async function resumedJob(
  deps: { store: JobStore; planner: MessageJobPlanner },
  cluster: ClusterNodes,
  call: MessageJobResumeCall,
): Promise<{ plan: Plan; job: MessageJob }> {
  const found = await deps.store.withRequest(call.clusterId, call.jobId);
  if (!found) throw new RpcError(OWNER_FAILURES.notFound, `no message job ${call.jobId} on this cluster`);
  const { job, request } = found;
  if (job.status !== 'paused')
    throw new RpcError(OWNER_FAILURES.refused, `only a paused job resumes; this one is ${job.status}`);
  if (!request || job.chosen !== null)
    throw new RpcError(
      OWNER_FAILURES.refused,
      request
        ? 'a job on chosen messages keeps no list of what is left: choose them again for a new job'
        : 'the job was recorded before requests were kept: start a new one over what is left',
    );
  const plan = await deps.planner.plan(cluster, {
    clusterId: call.clusterId,
    jobId: job.id,
    queue: job.queue,
    job: request,
    requestedBy: call.requestedBy,
    ...(call.masking ? { masking: call.masking } : {}),
  });
  const left = await deps.planner.planned(plan);
  const planned = left && { count: job.processed + left.count, atLeast: left.atLeast };
  const resumed = await deps.store.resume(job.id, nodesFor(plan, job.nodes), planned);
  if (!resumed) throw new RpcError(OWNER_FAILURES.refused, 'the job was resumed or ended meanwhile');
  return { plan, job: resumed };
}

/**
 * The job's node counts in the order the plan runs its nodes (the runner counts node i of the plan
 * in entry i), a node new to the job from zero, and a node no longer holding the queue kept after.
 */
function nodesFor(plan: Pick<Plan, 'holders'>, counted: MessageJobNode[]): MessageJobNode[] {
  const planned = plan.holders.map(
    (h) =>
      counted.find((n) => n.node === h.node.name) ?? {
        node: h.node.name,
        processed: 0,
        batches: 0,
        notReached: 0,
        returned: 0,
        error: null,
      },
  );
  return [...planned, ...counted.filter((n) => !planned.includes(n))];
}
