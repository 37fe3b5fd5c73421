import { RpcError } from '@artemis-studio/bus';
import {
  bodyFilterOf,
  OWNER_FAILURES,
  selectorLiteral,
  type BrokerCount,
  type MessageJobImpact,
  type MessageJobImpactCall,
  type MessageJobStartCall,
  type StartMessageJobRequest,
} from '@artemis-studio/contracts';
import { addressSettings, managementRefusal, settingsLimit } from '../broker-actions/queue-browse';
import { findQueue, parseFound } from '../broker-actions/queue-action-calls';
import type { ActionJolokia } from '../broker-actions/queue-actions';
import { chosenHolder, queueHolders, type QueueHolder } from '../broker-actions/queue-holders';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { addressMbean, brokerMbean, count, text } from '../jolokia/attribute-values';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import type { JolokiaRequest } from '../jolokia/jolokia-client';
import { parseGroups } from './dead-letter-groups';
import {
  countCall,
  createQuarantine,
  groupedCount,
  retriesEachToOrigin,
  selectorOf,
  targetOf,
} from './message-job-calls';
import { pacedBatchSize } from './job-pace';
import { trashQueueOf } from './trash-queue';
import { jobMatches, type JobMatches } from '../body-filters/job-matches';

/** How many of a retry by filter's origins are looked up before it starts (as the groups' view does). */
const ORIGINS_CHECKED = 50;

/** What a job runs with, worked out and checked before it starts. */
export interface Plan {
  job: StartMessageJobRequest;
  id: string;
  clusterId: string;
  holders: QueueHolder[];
  selector: string;
  /** The queue (or binding) the broker moves the messages to; null for a delete. */
  target: string | null;
  /** A delete by filter's trash queue, made on every node the job runs on (trash-queue.ts). */
  trash: string | null;
  /** A job by body filter: the matches its scan found on each node, by id (ADR-0038). */
  matched: JobMatches | null;
}

/**
 * A job checked and counted before anything changes (ADR-0012): the nodes that hold the queue,
 * the target there (a quarantine made where it is missing), what the broker counts now.
 */
export class MessageJobPlanner {
  constructor(private readonly deps: { jolokia: ActionJolokia; lanes: BrokerLanes }) {}

  /** How many messages the job would touch on each node, as the broker counts them now. */
  async impact(cluster: ClusterNodes, call: MessageJobImpactCall): Promise<MessageJobImpact> {
    const all = await queueHolders(this.deps.jolokia, cluster, call.queue);
    const holders = call.node ? [chosenHolder(all, call.queue, call.node)] : all;
    chosenHolder(holders, call.queue);
    const selector = selectorOf(call);
    const body = bodyFilterOf(call);
    if (body) {
      const { ids, scan } = await jobMatches(cluster, holders, call.queue, selector, body, call.masking);
      const nodes = holders.map((h) => ({
        node: h.node.name,
        messages: { count: ids.get(h.node.name)?.length ?? 0, atLeast: !scan.complete },
        depth: h.found.depth,
      }));
      return {
        clusterId: call.clusterId,
        queue: call.queue,
        kind: call.kind,
        filter: selector || null,
        messages: sumOf(nodes.map((n) => n.messages)),
        nodes,
        browseLimit: null,
        bodyScan: scan,
      };
    }
    const counted = await this.count(holders, selector);
    return {
      clusterId: call.clusterId,
      queue: call.queue,
      kind: call.kind,
      filter: selector || null,
      messages: sumOf(counted.map((c) => c.messages)),
      nodes: counted,
      browseLimit: counted.find((c) => c.browseLimit !== null)?.browseLimit ?? null,
      bodyScan: null,
    };
  }

  async plan(cluster: ClusterNodes, call: MessageJobStartCall): Promise<Plan> {
    if (call.job.toNode) return this.planNodeMove(cluster, call, call.job.toNode);
    const { queue } = call;
    const job = { ...call.job, batchSize: pacedBatchSize(call.job.batchSize, call.job.rate) };
    const target = targetOf(job);
    if (target === queue)
      throw new RpcError(OWNER_FAILURES.invalid, 'the messages are in that queue already: choose another');
    const holders = await queueHolders(this.deps.jolokia, cluster, queue);
    const working = job.messageIds ? [chosenHolder(holders, queue, job.node)] : holders;
    chosenHolder(working, queue);
    if (target) await this.readyTarget(working, target, job.quarantine !== undefined);
    if (retriesEachToOrigin(job)) await this.readyOrigins(working, selectorOf(job));
    const selector = selectorOf(job);
    const matched = job.bodyFilter
      ? await jobMatches(cluster, working, queue, selector, job.bodyFilter, call.masking)
      : null;
    const trash = job.kind === 'delete' && !job.messageIds ? trashQueueOf(call.jobId) : null;
    if (trash) await this.readyTrash(working, trash);
    return {
      job,
      id: call.jobId,
      clusterId: call.clusterId,
      holders: working,
      selector,
      target,
      trash,
      matched,
    };
  }

  /**
   * A move of one node's messages to the same queue on another node. The holding node's cluster
   * connection keeps a remote binding for the queue on each member it shares bindings with, named
   * the queue's name followed by that member's node id (its `RemoteQueueNames`); `moveMessages` to
   * it hands the messages to the store-and-forward link towards that member (checked on 2.40,
   * docs/clusters.md). Where there is no such binding (max-hops 0, no cluster) nothing can go that
   * way; where the link's bridge is down (nothing consumes its store-and-forward queue) they would
   * wait there instead: either way the job is refused before anything changes.
   */
  private async planNodeMove(
    cluster: ClusterNodes,
    call: MessageJobStartCall,
    toNode: string,
  ): Promise<Plan> {
    const { job, queue } = call;
    const holders = await queueHolders(this.deps.jolokia, cluster, queue);
    const from = chosenHolder(holders, queue, job.node);
    const to = chosenHolder(holders, queue, toNode);
    const [nodeId] = await this.read(to, [
      { type: 'read', mbean: brokerMbean(to.broker), attribute: 'NodeID' },
    ]);
    const address = from.found.address ?? queue;
    const memberId = text(nodeId.value) ?? '';
    const [remote, link] = await this.read(from, [
      { type: 'read', mbean: addressMbean(from.broker, address), attribute: 'RemoteQueueNames' },
      // The store-and-forward queue towards the member; a node id is a UUID, safe in a pattern.
      {
        type: 'read',
        mbean: `${brokerMbean(from.broker)},component=addresses,address=*,subcomponent=queues,routing-type=*,queue="$.artemis.internal.sf.*.${memberId}"`,
        attribute: 'ConsumerCount',
      },
    ]);
    const binding = `${queue}${memberId}`;
    const bindings = Array.isArray(remote.value) ? (remote.value as unknown[]) : [];
    const refuse = (why: string) => new RpcError(OWNER_FAILURES.refused, `${why}: nothing is moved that way`);
    if (nodeId.status !== 200 || !bindings.includes(binding))
      throw refuse(
        `${from.node.name} has no cluster binding to queue '${queue.slice(0, 200)}' on ${to.node.name} ` +
          '(its cluster connection shares no bindings with that node)',
      );
    const bridges = Object.values(
      (link.status === 200 ? link.value : {}) as Record<string, { ConsumerCount?: unknown }>,
    );
    if (!bridges.some((b) => count(b.ConsumerCount) !== null && count(b.ConsumerCount)! > 0))
      throw refuse(
        `the link from ${from.node.name} to ${to.node.name} is down (its bridge does not consume the ` +
          'store-and-forward queue): the messages would wait there until it is back',
      );
    return {
      job,
      id: call.jobId,
      clusterId: call.clusterId,
      holders: [from],
      selector: selectorOf(job),
      target: binding,
      trash: null,
      matched: null,
    };
  }

  /** What the job will touch, as it starts: its matches by id, or the broker's count; null for chosen ones. */
  async planned(plan: Plan): Promise<BrokerCount | null> {
    if (plan.matched)
      return {
        count: [...plan.matched.ids.values()].reduce((sum, ids) => sum + ids.length, 0),
        atLeast: false,
      };
    if (plan.job.messageIds) return null;
    return sumOf((await this.count(plan.holders, plan.selector)).map((c) => c.messages));
  }

  /** Reads on a holder's node in its lane; a node that does not answer refuses the job. */
  private async read(holder: QueueHolder, requests: JolokiaRequest[]) {
    const answers = await this.deps.lanes
      .run(holder.target.nodeKey, () => this.deps.jolokia.bulk(holder.target, requests, MANAGEMENT_CALL))
      .catch((err: Error) => {
        throw new RpcError(OWNER_FAILURES.unreachable, `${holder.node.name} did not answer: ${err.message}`);
      });
    return answers;
  }

  /** The target is on every node the job runs on; a quarantine is made where it is missing. */
  private async readyTarget(holders: QueueHolder[], target: string, quarantine: boolean): Promise<void> {
    for (const h of holders) {
      const request: JolokiaRequest = quarantine
        ? createQuarantine(brokerMbean(h.broker), target)
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

  /**
   * A retry by filter sends each message back to the queue it came from: each origin the broker
   * counts among the matching messages must be on the node, or those messages would have nowhere
   * to go and the job is refused before anything moves. The broker groups within its browse limit:
   * an origin found past it that is gone fails the job there, with the broker's words.
   */
  private async readyOrigins(holders: QueueHolder[], selector: string): Promise<void> {
    for (const h of holders) {
      const [grouped] = await this.read(h, [groupedCount(h.found.mbean, selector)]);
      const groups = parseGroups(grouped)
        .filter((g) => g.origin !== null)
        .slice(0, ORIGINS_CHECKED);
      if (groups.length === 0) continue;
      const found = await this.read(
        h,
        groups.map((g) => findQueue(h.broker, g.origin!)),
      );
      const gone = groups.find((_, i) => found[i].status !== 200 || !parseFound(found[i]));
      if (gone)
        throw new RpcError(
          OWNER_FAILURES.notFound,
          `${gone.count} matching messages came from queue '${gone.origin!.slice(0, 200)}', which is not on ` +
            `node ${h.node.name}: they would have nowhere to go. Leave them out ` +
            `(AND _AMQ_ORIG_QUEUE <> ${selectorLiteral(gone.origin!.slice(0, 200))}) or make the queue first`,
        );
    }
  }

  /** A delete's trash queue on every node the job runs on, before anything is deleted. */
  private async readyTrash(holders: QueueHolder[], trash: string): Promise<void> {
    for (const h of holders) {
      const [answer] = await this.read(h, [createQuarantine(brokerMbean(h.broker), trash)]);
      if (answer.status !== 200) throw managementRefusal(answer.error, `to make the trash queue '${trash}'`);
    }
  }

  /** Each node's count for the selector, and the browse limit that caps a filtered one. */
  async count(holders: QueueHolder[], selector: string) {
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
}

/** The sum of the nodes' counts: a lower bound when any of them is. */
function sumOf(counts: BrokerCount[]): BrokerCount {
  return {
    count: counts.reduce((sum, c) => sum + c.count, 0),
    atLeast: counts.some((c) => c.atLeast),
  };
}
