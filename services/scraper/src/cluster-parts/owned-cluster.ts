import type { Credential } from '@artemis-studio/contracts';
import type { ClusterTarget, ClusterTargetNode } from '@artemis-studio/db';
import { defaultOrigin, type JolokiaTarget } from '../jolokia/jolokia-client';

/** Where an AMQP send goes: the node's AMQP URL, and the credential the cluster gives for it. */
export interface AmqpEndpoint {
  url: string;
  credential: Credential | undefined;
}

/** What a part that calls the brokers needs of a cluster: its live nodes as tier A last saw them. */
export interface ClusterNodes {
  readonly target: { id: string };
  liveNodes(): ClusterTargetNode[];
  /** The broker name (MBean key) tier A last read from a node. */
  brokerName(nodeId: string): string | null;
  jolokiaTarget(node: ClusterTargetNode): JolokiaTarget;
  /** Where an application would send to the node over AMQP; null when the cluster gives no AMQP URL. */
  amqpEndpoint(node: ClusterTargetNode): AmqpEndpoint | null;
}

/** One node as a tier-A tick left it. */
export interface NodeSeen {
  nodeId: string;
  live: boolean;
  brokerName: string | null;
}

/**
 * A cluster this replica owns, as every part of it sees it: the registration, what tier A last saw
 * of its nodes (the poller tells it after each tick), and a signal aborted when the replica lets it
 * go, for work that must stop between two steps (a message job's batches).
 */
export class OwnedCluster implements ClusterNodes {
  private seen: readonly NodeSeen[] = [];

  constructor(
    readonly target: ClusterTarget,
    readonly stopped: AbortSignal,
  ) {}

  /** Tier A's latest sight of the nodes. */
  saw(nodes: readonly NodeSeen[]): void {
    this.seen = nodes;
  }

  liveNodes(): ClusterTargetNode[] {
    const live = new Set(this.seen.filter((n) => n.live).map((n) => n.nodeId));
    return this.target.nodes.filter((n) => live.has(n.id));
  }

  brokerName(nodeId: string): string | null {
    return this.seen.find((n) => n.nodeId === nodeId)?.brokerName ?? null;
  }

  jolokiaTarget(node: ClusterTargetNode): JolokiaTarget {
    return {
      nodeKey: node.id,
      jolokiaUrl: node.jolokiaUrl,
      origin: this.target.jolokiaOrigin ?? defaultOrigin(node.jolokiaUrl),
      auth: this.target.credentials.JOLOKIA,
    };
  }

  amqpEndpoint(node: ClusterTargetNode): AmqpEndpoint | null {
    // As the notifier connects: the AMQP credential, or the Jolokia one where the cluster gives one only.
    const credential = this.target.credentials.AMQP ?? this.target.credentials.JOLOKIA;
    return node.amqpUrl ? { url: node.amqpUrl, credential } : null;
  }
}
