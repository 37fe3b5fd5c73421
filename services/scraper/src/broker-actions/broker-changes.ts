import { RpcError } from '@artemis-studio/bus';
import {
  OWNER_FAILURES,
  sentOverAmqp,
  type BrokerChange,
  type BrokerChangeCall,
  type BrokerChangeResult,
  type NodeActionResult,
} from '@artemis-studio/contracts';
import type { ClusterTargetNode } from '@artemis-studio/db';
import type { JolokiaRequest, JolokiaResponse, JolokiaTarget } from '../jolokia/jolokia-client';
import { addressMbean, brokerMbean } from '../jolokia/attribute-values';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import { absentResult, findQueue, parseFound, refusedResult, unreachedResult } from './queue-action-calls';
import { onNodeInLane, refuseWhenNothingHappened, type ActionJolokia } from './queue-actions';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { amqpMessageOf, sendOverAmqp } from './amqp-send';

type Send = Extract<BrokerChange, { kind: 'send' | 'send-to-address' }>;

/** The broker operation that makes the change on one node (a send is on its queue's or address's MBean). */
function changeCall(broker: string, change: BrokerChange, sendMbean?: string): JolokiaRequest {
  switch (change.kind) {
    case 'create-queue': {
      const q = change.queue;
      // QueueConfiguration's JSON: the broker's own names for each field.
      const configuration = {
        name: q.name,
        address: q.address ?? q.name,
        'routing-type': q.routingType,
        durable: q.durable,
        'max-consumers': q.maxConsumers,
        'purge-on-no-consumers': q.purgeOnNoConsumers,
        ...(q.filter ? { 'filter-string': q.filter } : {}),
      };
      return {
        type: 'exec',
        mbean: brokerMbean(broker),
        operation: 'createQueue(java.lang.String,boolean)',
        arguments: [JSON.stringify(configuration), false],
      };
    }
    case 'create-address':
      return {
        type: 'exec',
        mbean: brokerMbean(broker),
        operation: 'createAddress(java.lang.String,java.lang.String)',
        arguments: [change.address.name, change.address.routingTypes.join(',')],
      };
    case 'delete-address':
      return {
        type: 'exec',
        mbean: brokerMbean(broker),
        operation: 'deleteAddress(java.lang.String,boolean)',
        arguments: [change.name, change.removeQueues],
      };
    case 'send':
    case 'send-to-address': {
      const m = change.message;
      // Type 3 is a text message; any other type takes a Base64 body (4: bytes).
      return {
        type: 'exec',
        mbean: sendMbean!,
        operation:
          'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String,boolean)',
        arguments: [m.headers, m.bodyEncoding === 'base64' ? 4 : 3, m.body, m.durable, null, null, true],
      };
    }
  }
}

const targetOf = (change: BrokerChange): string =>
  change.kind === 'create-queue'
    ? change.queue.name
    : change.kind === 'create-address'
      ? change.address.name
      : change.kind === 'delete-address'
        ? change.name
        : change.kind === 'send-to-address'
          ? change.address
          : change.queue;

function resultOf(node: string, answer: JolokiaResponse, messages: number | null): NodeActionResult {
  if (answer.status !== 200)
    return refusedResult(node, answer.error ?? `the broker answered status ${answer.status}`);
  return { ...absentResult(node), outcome: 'done', messages };
}

/**
 * Queues and addresses made or removed on every live node, and a message sent on one, through the
 * same lanes as every management call: one at a time per broker.
 */
export class BrokerChanges {
  constructor(
    private readonly jolokia: ActionJolokia,
    private readonly lanes: BrokerLanes,
  ) {}

  async run(cluster: ClusterNodes, { clusterId, change }: BrokerChangeCall): Promise<BrokerChangeResult> {
    const nodes = cluster.liveNodes();
    if (nodes.length === 0)
      throw new RpcError(OWNER_FAILURES.unreachable, 'no live node observed: nothing can be changed');
    const target = targetOf(change);
    const results =
      change.kind === 'send' || change.kind === 'send-to-address'
        ? [await this.send(cluster, nodes, change)]
        : await Promise.all(nodes.map((node) => this.onNode(cluster, node, change)));
    refuseWhenNothingHappened(
      `${change.kind.replace('-', ' ')} '${target.slice(0, 200)}'`,
      `'${target.slice(0, 200)}'`,
      results,
    );
    return { clusterId, kind: change.kind, target, nodes: results, at: new Date().toISOString() };
  }

  private onNode(
    cluster: ClusterNodes,
    node: ClusterTargetNode,
    change: BrokerChange,
  ): Promise<NodeActionResult> {
    return onNodeInLane(this.lanes, cluster, node, async (broker, target) => {
      const [answer] = await this.jolokia.bulk(target, [changeCall(broker, change)], MANAGEMENT_CALL);
      return resultOf(node.name, answer, null);
    });
  }

  /** A send goes to one node: the one asked for, or the first live node holding the queue (or address). */
  private async send(
    cluster: ClusterNodes,
    nodes: ClusterTargetNode[],
    change: Send,
  ): Promise<NodeActionResult> {
    if (change.kind === 'send' && change.message.routingType)
      throw new RpcError(
        OWNER_FAILURES.invalid,
        "a queue has its routing type: give 'routingType' when sending to an address",
      );
    const candidates = change.message.node ? nodes.filter((n) => n.name === change.message.node) : nodes;
    for (const node of candidates) {
      const broker = cluster.brokerName(node.id);
      if (!broker) continue;
      const target = cluster.jolokiaTarget(node);
      const outcome = await this.lanes
        .run(target.nodeKey, async () => {
          const found = await this.sendTo(target, broker, change);
          if (!found) return null;
          if (sentOverAmqp(change.message))
            return {
              ...(await this.overAmqp(cluster, node, change, found.address)),
              depthBefore: found.depth,
            };
          const [answer] = await this.jolokia.bulk(
            target,
            [changeCall(broker, change, found.mbean)],
            MANAGEMENT_CALL,
          );
          return { ...resultOf(node.name, answer, 1), depthBefore: found.depth };
        })
        .catch((err: Error) => unreachedResult(node.name, err.message));
      if (outcome) return outcome;
    }
    const named = change.kind === 'send' ? `queue '${change.queue}'` : `address '${change.address}'`;
    throw new RpcError(
      OWNER_FAILURES.notFound,
      `${named.slice(0, 220)} is on no live node${change.message.node ? ` named ${change.message.node}` : ''}`,
    );
  }

  /**
   * A send management cannot make (typed properties, a routing type), made over AMQP as an
   * application would: to the queue by its fully qualified name, or to the address (the message
   * itself carrying the routing type, amqp-send.ts).
   */
  private async overAmqp(
    cluster: ClusterNodes,
    node: ClusterTargetNode,
    change: Send,
    address: string | null,
  ): Promise<NodeActionResult> {
    const endpoint = cluster.amqpEndpoint(node);
    if (!endpoint)
      return refusedResult(
        node.name,
        `typed properties and a routing type are sent over AMQP, and the cluster gives ${node.name} no AMQP URL: add one, or send String headers only`,
      );
    const to = {
      address: change.kind === 'send' ? `${address ?? change.queue}::${change.queue}` : change.address,
    };
    try {
      await sendOverAmqp(endpoint, to, amqpMessageOf(change.message));
      return { ...absentResult(node.name), outcome: 'done', messages: 1 };
    } catch (err) {
      return refusedResult(node.name, `the AMQP send did not go through: ${(err as Error).message}`);
    }
  }

  /** The MBean a send is made on, when the node has the queue (or the address); null when not. */
  private async sendTo(
    target: JolokiaTarget,
    broker: string,
    change: Send,
  ): Promise<{ mbean: string; address: string | null; depth: number | null } | null> {
    if (change.kind === 'send') {
      const [lookup] = await this.jolokia.bulk(target, [findQueue(broker, change.queue)], MANAGEMENT_CALL);
      return parseFound(lookup);
    }
    const mbean = addressMbean(broker, change.address);
    const [lookup] = await this.jolokia.bulk(
      target,
      [{ type: 'read', mbean, attribute: 'Address' }],
      MANAGEMENT_CALL,
    );
    if (lookup.status === 404) return null;
    if (lookup.status !== 200) throw new Error(lookup.error ?? `address lookup failed (${lookup.status})`);
    return { mbean, address: change.address, depth: null };
  }
}
