import { attributeError, count, flag, quotedKey, text } from '../jolokia/attribute-values';
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
  /**
   * When the queue's oldest waiting message was sent (`FirstMessageTimestamp`); null when the queue
   * is empty, its head carries no time, or the broker does not say.
   */
  firstMessageAt: Date | null;
}

const NUMBERS = [
  'MessageCount',
  'ConsumerCount',
  'DeliveringCount',
  'MessagesAdded',
  'MessagesAcknowledged',
  'MessagesExpired',
  'MessagesKilled',
] as const;
const FLAGS = ['Paused', 'Durable', 'Temporary'] as const;
const TEXTS = ['Name', 'Address', 'RoutingType'] as const;
/** Read where the broker gives it; its absence or an error is "unknown", never a reason to skip the queue. */
const OPTIONAL = ['FirstMessageTimestamp'] as const;
const QUEUE_ATTRIBUTES = [...TEXTS, ...NUMBERS, ...FLAGS, ...OPTIONAL];

/** A timestamp in ms as the broker gives it: 0 or less is a message that carries no time. */
const instantOrNull = (v: unknown): Date | null => {
  const ms = count(v);
  return ms !== null && ms > 0 ? new Date(ms) : null;
};

/** A wildcard read of every queue MBean: the first read of each tier-B request (polling/tier-b.ts). */
export const QUEUE_REQUEST: JolokiaRequest = {
  type: 'read',
  mbean:
    'org.apache.activemq.artemis:broker=*,component=addresses,address=*,subcomponent=queues,routing-type=*,queue=*',
  attribute: QUEUE_ATTRIBUTES,
};

type Attributes = Record<string, unknown>;

/** What one tier-B read of a node gave: the queues it could read, and those it could not. */
export interface QueueReading {
  queues: QueueObservation[];
  /**
   * Queues the broker listed but could not give every figure of (an attribute came back as an
   * error, typically while the broker starts or stops). They keep their last snapshot this tick:
   * left out of `queues` they would read as deleted, and taken as they came a depth would read 0.
   */
  unreadable: { name: string; reason: string }[];
}

/**
 * Why a queue's attributes cannot be taken, or null. An attribute left out of the answer is not
 * an error (a broker older than the attribute); one of the wrong type is.
 */
function unreadableBecause(q: Attributes): string | null {
  const wrong = (names: readonly string[], typeOk: (v: unknown) => boolean) =>
    names.filter((n) => q[n] !== undefined && !typeOk(q[n]));
  const bad = [
    ...wrong(TEXTS, (v) => text(v) !== null),
    ...wrong(NUMBERS, (v) => count(v) !== null),
    ...wrong(FLAGS, (v) => flag(v) !== null),
  ];
  if (bad.length === 0) return null;
  return `${bad.join(', ')}: ${attributeError(q[bad[0]]) ?? `not a value: ${JSON.stringify(q[bad[0]])}`}`;
}

/**
 * Reads the wildcard answer. A broker without queues answers 404 (no MBean matches the pattern),
 * which is an empty list, not a failure.
 */
export function parseQueues(answers: JolokiaResponse[]): QueueReading {
  const answer = answers[0];
  if (answer?.status === 404) return { queues: [], unreadable: [] };
  if (!answer || answer.status !== 200) throw new Error(`queue read failed: ${answer?.error ?? 'no answer'}`);
  const reading: QueueReading = { queues: [], unreadable: [] };
  for (const [mbean, q] of Object.entries((answer.value ?? {}) as Record<string, Attributes>)) {
    const name = text(q.Name) ?? quotedKey(mbean, 'queue');
    // Not knowing which queue it is, the tick cannot tell a deleted queue from this one.
    if (name === null) throw new Error(`queue read failed: no name for ${mbean}`);
    const reason = unreadableBecause(q);
    if (reason !== null) {
      reading.unreadable.push({ name, reason });
      continue;
    }
    const n = (a: (typeof NUMBERS)[number]) => count(q[a]) ?? 0;
    reading.queues.push({
      name,
      address: text(q.Address) ?? '',
      routingType: text(q.RoutingType) ?? '',
      messageCount: n('MessageCount'),
      consumerCount: n('ConsumerCount'),
      deliveringCount: n('DeliveringCount'),
      messagesAdded: n('MessagesAdded'),
      messagesAcknowledged: n('MessagesAcknowledged'),
      messagesExpired: n('MessagesExpired'),
      messagesKilled: n('MessagesKilled'),
      paused: q.Paused === true,
      durable: q.Durable === true,
      temporary: q.Temporary === true,
      firstMessageAt: instantOrNull(q.FirstMessageTimestamp),
    });
  }
  return reading;
}
