import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

/** One queue of one node at one tier-B tick. */
export interface QueueObservation {
  name: string;
  address: string;
  routingType: string;
  messageCount: number;
  consumerCount: number;
  deliveringCount: number;
  messagesAdded: number;
  messagesAcknowledged: number;
  messagesExpired: number;
  messagesKilled: number;
  paused: boolean;
  durable: boolean;
  temporary: boolean;
}

const QUEUE_ATTRIBUTES = [
  'Name',
  'Address',
  'RoutingType',
  'MessageCount',
  'ConsumerCount',
  'DeliveringCount',
  'MessagesAdded',
  'MessagesAcknowledged',
  'MessagesExpired',
  'MessagesKilled',
  'Paused',
  'Durable',
  'Temporary',
];

/** Tier B is one bulk request per live node: a wildcard read of every queue MBean. */
export const TIER_B_REQUESTS: JolokiaRequest[] = [
  {
    type: 'read',
    mbean:
      'org.apache.activemq.artemis:broker=*,component=addresses,address=*,subcomponent=queues,routing-type=*,queue=*',
    attribute: QUEUE_ATTRIBUTES,
  },
];

type Attributes = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;

/**
 * Reads the wildcard answer. A broker without queues answers 404 (no MBean matches the pattern),
 * which is an empty list, not a failure.
 */
export function parseQueues(answers: JolokiaResponse[]): QueueObservation[] {
  const answer = answers[0];
  if (answer?.status === 404) return [];
  if (!answer || answer.status !== 200) throw new Error(`queue read failed: ${answer?.error ?? 'no answer'}`);
  return Object.values((answer.value ?? {}) as Record<string, Attributes>)
    .filter((q) => typeof q.Name === 'string')
    .map((q) => ({
      name: String(q.Name),
      address: String(q.Address ?? ''),
      routingType: String(q.RoutingType ?? ''),
      messageCount: num(q.MessageCount),
      consumerCount: num(q.ConsumerCount),
      deliveringCount: num(q.DeliveringCount),
      messagesAdded: num(q.MessagesAdded),
      messagesAcknowledged: num(q.MessagesAcknowledged),
      messagesExpired: num(q.MessagesExpired),
      messagesKilled: num(q.MessagesKilled),
      paused: q.Paused === true,
      durable: q.Durable === true,
      temporary: q.Temporary === true,
    }));
}
