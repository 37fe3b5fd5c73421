import { RpcError } from '@artemis-studio/bus';
import {
  OWNER_FAILURES,
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
import { count, quoted } from '../jolokia/attribute-values';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import type { JolokiaRequest } from '../jolokia/jolokia-client';
import { countCall, createQuarantine, selectorOf, targetOf } from './message-job-calls';

/** What a job runs with, worked out and checked before it starts. */
export interface Plan {
  job: StartMessageJobRequest;
  id: string;
  clusterId: string;
  holders: QueueHolder[];
  selector: string;
  target: string | null;
}

/**
 * A job checked and counted before anything changes (ADR-0012): the nodes that hold the queue,
 * the target there (a quarantine made where it is missing), what the broker counts now.
 */
export class MessageJobPlanner {
  constructor(private readonly deps: { jolokia: ActionJolokia; lanes: BrokerLanes }) {}

  /** How many messages the job would touch on each node, as the broker counts them now. */
  async impact(cluster: ClusterNodes, call: MessageJobImpactCall): Promise<MessageJobImpact> {
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

  async plan(cluster: ClusterNodes, call: MessageJobStartCall): Promise<Plan> {
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
export function sumOf(counts: BrokerCount[]): BrokerCount {
  return {
    count: counts.reduce((sum, c) => sum + c.count, 0),
    atLeast: counts.some((c) => c.atLeast),
  };
}
