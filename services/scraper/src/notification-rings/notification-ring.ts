import { NOTIFICATION_ADDRESS } from '@artemis-studio/contracts';
import { v5 as nameBasedUuid } from 'uuid';
import { attributeError, brokerMbean, count, quoted, text } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

/**
 * Studio's ring on every node of one cluster (ADR-0015). Named for the cluster's registration,
 * which is unique to one Studio installation: two installations watching one broker never share
 * a ring (they would split its notifications), and a backup activated by a failover already holds
 * the ring its live node replicated to it.
 */
export const ringQueueName = (clusterId: string): string => `artemis-studio.${clusterId}`;

const RING_ATTRIBUTES = [
  'Name',
  'RingSize',
  // Added before the rest: Jolokia reads them in this order, and discardedBy relies on it.
  'MessagesAdded',
  'MessageCount',
  'MessagesAcknowledged',
  'MessagesExpired',
  'MessagesKilled',
  'ConsumerCount',
];

/** Every queue on the notification address: read with each tier-A poll of a node (its second read). */
export const RING_QUEUES_REQUEST: JolokiaRequest = {
  type: 'read',
  mbean: `org.apache.activemq.artemis:broker=*,component=addresses,address=${quoted(NOTIFICATION_ADDRESS)},subcomponent=queues,routing-type="multicast",queue=*`,
  attribute: RING_ATTRIBUTES,
};

/** One queue on the notification address, as its counters stood. */
export interface RingReading {
  name: string;
  ringSize: number;
  messageCount: number;
  added: number;
  acknowledged: number;
  expired: number;
  killed: number;
  consumers: number;
}

/**
 * The queues a node's notification address holds, or null when they could not be read. No queue
 * at all is an answer too: Jolokia reports a pattern that matches nothing as not found (404).
 */
export function parseRingQueues(answer: JolokiaResponse | undefined): RingReading[] | null {
  if (!answer) return null;
  if (answer.status === 404) return [];
  if (answer.status !== 200) return null;
  const readings: RingReading[] = [];
  for (const q of Object.values((answer.value ?? {}) as Record<string, Record<string, unknown>>)) {
    const name = text(q.Name);
    if (name === null || RING_ATTRIBUTES.some((a) => attributeError(q[a]))) return null;
    const figures = [
      q.RingSize,
      q.MessageCount,
      q.MessagesAdded,
      q.MessagesAcknowledged,
      q.MessagesExpired,
      q.MessagesKilled,
      q.ConsumerCount,
    ].map((v) => count(v) ?? 0);
    const [ringSize, messageCount, added, acknowledged, expired, killed, consumers] = figures;
    readings.push({ name, ringSize, messageCount, added, acknowledged, expired, killed, consumers });
  }
  return readings;
}

/**
 * What a ring has discarded since the broker made it. A ring's discards are acknowledgements the
 * broker counts apart (`AckReason.REPLACED`) and does not publish as an attribute, so they are what
 * was added and is neither acknowledged, expired, killed nor still held. Read in that order (added
 * first), attributes moving during the read can only make this smaller, never invent a loss.
 */
export function discardedBy(r: RingReading): number {
  return Math.max(0, r.added - r.acknowledged - r.expired - r.killed - r.messageCount);
}

/** A change the ring of one node needs: each is one management call. */
export type RingStep =
  | { kind: 'create'; size: number }
  | { kind: 'resize'; size: number }
  | { kind: 'destroy'; removeConsumers: boolean };

/**
 * How long a ring no longer wanted is left to its consumer (the notifier moves to a subscription
 * of its own first, make before break) before it is destroyed under it.
 */
export const UNWANTED_GRACE_MS = 30_000;

/**
 * What to do with one node's ring: `size` is the setting (0: no ring), `found` the ring as read,
 * `unwantedFor` how long it has been present and unwanted.
 */
export function planRing(size: number, found: RingReading | undefined, unwantedForMs: number): RingStep[] {
  if (size > 0) {
    if (!found) return [{ kind: 'create', size }];
    return found.ringSize === size ? [] : [{ kind: 'resize', size }];
  }
  if (!found) return [];
  if (found.consumers === 0) return [{ kind: 'destroy', removeConsumers: false }];
  return unwantedForMs >= UNWANTED_GRACE_MS ? [{ kind: 'destroy', removeConsumers: true }] : [];
}

/** The management call of a step, on the broker MBean. */
export function ringCall(broker: string, queue: string, step: RingStep): JolokiaRequest {
  const mbean = brokerMbean(broker);
  switch (step.kind) {
    case 'create':
      return {
        type: 'exec',
        mbean,
        operation: 'createQueue(java.lang.String,boolean)',
        // Made with its bound: never unbounded, not even for a moment. Durable, so the queue (not
        // what it holds: notifications are not persistent) outlives a restart and is replicated.
        arguments: [
          JSON.stringify({
            name: queue,
            address: NOTIFICATION_ADDRESS,
            'routing-type': 'MULTICAST',
            durable: true,
            'ring-size': step.size,
          }),
          true,
        ],
      };
    case 'resize':
      return {
        type: 'exec',
        mbean,
        operation: 'updateQueue(java.lang.String)',
        arguments: [JSON.stringify({ name: queue, 'ring-size': step.size })],
      };
    case 'destroy':
      return {
        type: 'exec',
        mbean,
        operation: 'destroyQueue(java.lang.String,boolean)',
        arguments: [queue, step.removeConsumers],
      };
  }
}

const REPORT_NAMESPACE = '0d6f3c4e-2b1a-4f7e-9c55-5a1de4a7b0c1';

/**
 * The id of a report of a ring's discards up to `discarded`: the same for a retry of the same count
 * (the event store counts a report id once), different for a new count.
 */
export function ringReportId(clusterId: string, node: string, since: string, discarded: number): string {
  return nameBasedUuid(`${clusterId}|${node}|${since}|${discarded}`, REPORT_NAMESPACE);
}
