import { ADDRESS_REQUEST, parseAddresses, type AddressReading } from '../addresses/address-observation';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { QUEUE_REQUEST, parseQueues, type QueueObservation } from '../queues/queue-observation';

/** Tier B is one bulk request per live node: every queue, and every address, in two wildcard reads. */
export const TIER_B_REQUESTS: JolokiaRequest[] = [QUEUE_REQUEST, ADDRESS_REQUEST];

/** What one tier-B tick read on one live node, for the alert rules and the Prometheus export. */
export interface NodeTierB {
  nodeId: string;
  queues: readonly QueueObservation[];
  /** Listed but not read this tick: their figures are unknown, not gone. */
  unread: readonly string[];
  /** Null when the node's addresses could not be read this tick (its queues still count). */
  addresses: AddressReading | null;
}

/**
 * Splits a node's tier-B answer. A failed queue read throws (the tick cannot tell a deleted queue
 * from an unread one); a failed address read leaves the addresses unknown and says why.
 */
export function readTierB(answers: JolokiaResponse[]): {
  queues: ReturnType<typeof parseQueues>;
  addresses: AddressReading | null;
  addressError: string | null;
} {
  const queues = parseQueues([answers[0]]);
  try {
    return { queues, addresses: parseAddresses(answers[1]), addressError: null };
  } catch (err) {
    return { queues, addresses: null, addressError: (err as Error).message };
  }
}
