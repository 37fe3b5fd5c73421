import { ADDRESS_REQUEST, parseAddresses, type AddressReading } from '../addresses/address-observation';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { QUEUE_REQUEST, parseQueues, type QueueObservation } from '../queues/queue-observation';
import {
  CLUSTER_CONNECTION_REQUEST,
  parseClusterConnections,
  type ClusterConnectionReading,
} from '../topology/cluster-connection';
import {
  BROKER_CONNECTION_REQUEST,
  parseBrokerConnections,
  type BrokerConnectionReading,
} from '../topology/broker-connection';
import { CORE_BRIDGE_REQUEST, parseCoreBridges, type CoreBridgeReading } from '../topology/core-bridge';

/**
 * Tier B is one bulk request per live node: every queue, every address, every cluster connection,
 * every core bridge and every broker connection, in five wildcard reads.
 */
export const TIER_B_REQUESTS: JolokiaRequest[] = [
  QUEUE_REQUEST,
  ADDRESS_REQUEST,
  CLUSTER_CONNECTION_REQUEST,
  CORE_BRIDGE_REQUEST,
  BROKER_CONNECTION_REQUEST,
];

/** What one tier-B tick read on one live node, for the alert rules and the Prometheus export. */
export interface NodeTierB {
  nodeId: string;
  queues: readonly QueueObservation[];
  /** Listed but not read this tick: their figures are unknown, not gone. */
  unread: readonly string[];
  /** Null when the node's addresses could not be read this tick (its queues still count). */
  addresses: AddressReading | null;
  /** The node's cluster connections ([] on a broker not clustered); null or absent when unread this tick. */
  clusterConnections?: readonly ClusterConnectionReading[] | null;
  /** The node's core bridges ([] when it has none); null when unread this tick. */
  bridges?: readonly CoreBridgeReading[] | null;
  /** The node's broker connections (AMQP), the same way. */
  brokerConnections?: readonly BrokerConnectionReading[] | null;
}

/**
 * Splits a node's tier-B answer. A failed queue read throws (the tick cannot tell a deleted queue
 * from an unread one); a failed address, cluster connection or bridge read leaves those unknown
 * and says why.
 */
export function readTierB(answers: JolokiaResponse[]): {
  queues: ReturnType<typeof parseQueues>;
  addresses: AddressReading | null;
  clusterConnections: ClusterConnectionReading[] | null;
  bridges: CoreBridgeReading[] | null;
  brokerConnections: BrokerConnectionReading[] | null;
  /** Why the addresses, the cluster connections or the bridges are unknown this tick. */
  errors: string[];
} {
  const queues = parseQueues([answers[0]]);
  const errors: string[] = [];
  const unknownIfFailing = <T>(parse: () => T): T | null => {
    try {
      return parse();
    } catch (err) {
      errors.push((err as Error).message);
      return null;
    }
  };
  return {
    queues,
    addresses: unknownIfFailing(() => parseAddresses(answers[1])),
    clusterConnections: unknownIfFailing(() => parseClusterConnections(answers[2])),
    bridges: unknownIfFailing(() => parseCoreBridges(answers[3])),
    brokerConnections: unknownIfFailing(() => parseBrokerConnections(answers[4])),
    errors,
  };
}
