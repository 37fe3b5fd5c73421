import { RpcError } from '@artemis-studio/bus';
import {
  OWNER_FAILURES,
  type NodeActionResult,
  type QueueActionCall,
  type QueueActionResult,
} from '@artemis-studio/contracts';
import type { ClusterTargetNode } from '@artemis-studio/db';
import type { CallOptions, JolokiaRequest, JolokiaResponse, JolokiaTarget } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import {
  absentResult,
  actionCall,
  countedResult,
  unreachedResult,
  findQueue,
  nodeResult,
  parseFound,
  readState,
} from './queue-action-calls';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';

export interface ActionJolokia {
  bulk(target: JolokiaTarget, requests: JolokiaRequest[], options?: CallOptions): Promise<JolokiaResponse[]>;
}

/**
 * Queue actions on every live node that holds the queue, one at a time per broker. Each node is
 * looked up first (the queue's MBean, its depth, consumers and pause), then acted on with its state
 * read again in the same call, so what is reported is what the broker said before and after.
 */
export class QueueActions {
  constructor(
    private readonly jolokia: ActionJolokia,
    private readonly lanes: BrokerLanes,
  ) {}

  async run(cluster: ClusterNodes, call: QueueActionCall): Promise<QueueActionResult> {
    const nodes = cluster.liveNodes();
    if (nodes.length === 0)
      throw new RpcError(OWNER_FAILURES.unreachable, 'no live node observed: nothing can be acted on');
    const results = await Promise.all(nodes.map((node) => this.onNode(cluster, node, call)));
    refuseWhenNothingHappened(
      `${call.action} '${call.queue.slice(0, 200)}'`,
      `queue '${call.queue.slice(0, 200)}'`,
      results,
    );
    const counted = results.filter((r) => r.messages !== null);
    return {
      clusterId: call.clusterId,
      queue: call.queue,
      action: call.action,
      dryRun: call.dryRun,
      messages: counted.length ? counted.reduce((sum, r) => sum + (r.messages ?? 0), 0) : null,
      nodes: results,
      at: new Date().toISOString(),
    };
  }

  private onNode(
    cluster: ClusterNodes,
    node: ClusterTargetNode,
    call: QueueActionCall,
  ): Promise<NodeActionResult> {
    return onNodeInLane(this.lanes, cluster, node, async (broker, target) => {
      const [lookup] = await this.jolokia.bulk(target, [findQueue(broker, call.queue)], MANAGEMENT_CALL);
      const before = parseFound(lookup);
      if (!before) return absentResult(node.name);
      if (call.dryRun) return countedResult(node.name, call.action, before);
      const answers = await this.jolokia.bulk(
        target,
        [actionCall(broker, before, call.action, call.queue, call.persist), readState(before)],
        MANAGEMENT_CALL,
      );
      return nodeResult(node.name, call.action, before, answers);
    });
  }
}

/**
 * Runs `work` against the node's broker in that broker's lane. A node whose broker name is not
 * known yet, or that cannot be asked, is a failed node that was not reached: the others go on.
 */
export function onNodeInLane(
  lanes: BrokerLanes,
  cluster: ClusterNodes,
  node: ClusterTargetNode,
  work: (broker: string, target: JolokiaTarget) => Promise<NodeActionResult>,
): Promise<NodeActionResult> {
  const broker = cluster.brokerName(node.id);
  if (!broker) return Promise.resolve(unreachedResult(node.name, 'broker name not observed yet'));
  const target = cluster.jolokiaTarget(node);
  return lanes
    .run(target.nodeKey, () => work(broker, target))
    .catch((err: Error) => unreachedResult(node.name, err.message));
}

/**
 * A result with nothing done anywhere is an error the caller can act on, with its HTTP meaning:
 * what it names is nowhere, the broker was busy, the broker refused, or no node answered.
 * `what` is the change in words ("purge 'orders'"), `named` what it acts on ("queue 'orders'").
 */
export function refuseWhenNothingHappened(what: string, named: string, results: NodeActionResult[]): void {
  const present = results.filter((r) => r.outcome !== 'absent');
  if (present.length === 0) throw new RpcError(OWNER_FAILURES.notFound, `${named} is on no live node`);
  if (present.some((r) => r.outcome !== 'failed')) return;
  const reasons = present.map((r) => `${r.node}: ${r.error}`).join('; ');
  if (present.every((r) => r.busy))
    throw new RpcError(
      OWNER_FAILURES.busy,
      `the broker is busy with another management call; try again shortly (${reasons})`,
    );
  if (present.every((r) => r.reached === false))
    throw new RpcError(OWNER_FAILURES.unreachable, `no node could be asked (${reasons})`);
  throw new RpcError(OWNER_FAILURES.refused, `the broker refused to ${what}: ${reasons}`);
}
