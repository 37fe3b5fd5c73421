import { count, flag, quotedKey, text } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import type { QueueObservation } from '../queues/queue-observation';

/** One core bridge of one node, as a tier-B tick read it (docs/artemis.md, "Core bridges"). */
export interface CoreBridgeReading {
  name: string;
  /** Started says the bridge runs, not that it forwards: it stays true while it retries. */
  started: boolean;
  /** The queue it consumes from: it has the bridge as its consumer only while connected. */
  queueName: string;
  forwardingAddress: string | null;
  messagesAcknowledged: number | null;
  messagesPendingAcknowledgement: number | null;
}

/** A wildcard read of every core bridge MBean: the fourth read of each tier-B request. */
export const CORE_BRIDGE_REQUEST: JolokiaRequest = {
  type: 'read',
  mbean: 'org.apache.activemq.artemis:broker=*,component=bridges,name=*',
  attribute: [
    'Started',
    'QueueName',
    'ForwardingAddress',
    'MessagesAcknowledged',
    'MessagesPendingAcknowledgement',
  ],
};

/**
 * A node's core bridges; none on a broker without (the wildcard matches no MBean: Jolokia answers
 * 404). Throws when the read failed: the bridges are then unknown, not gone.
 */
export function parseCoreBridges(answer: JolokiaResponse | undefined): CoreBridgeReading[] {
  if (answer?.status === 404) return [];
  if (!answer || answer.status !== 200)
    throw new Error(`core bridge read failed: ${answer?.error ?? 'no answer'}`);
  return Object.entries((answer.value ?? {}) as Record<string, Record<string, unknown>>).map(([mbean, a]) => {
    const name = quotedKey(mbean, 'name');
    const started = flag(a.Started);
    const queueName = text(a.QueueName);
    if (name === null || started === null || queueName === null)
      throw new Error(`core bridge ${name ?? mbean} could not be read`);
    return {
      name,
      started,
      queueName,
      forwardingAddress: text(a.ForwardingAddress),
      messagesAcknowledged: count(a.MessagesAcknowledged),
      messagesPendingAcknowledgement: count(a.MessagesPendingAcknowledgement),
    };
  });
}

/**
 * Whether the bridge consumed its queue at the read (among the node's queues): the broker's
 * `Started` stays true while a bridge retries, and only a connected bridge is its queue's consumer.
 */
export const bridgeConnected = (bridge: CoreBridgeReading, queues: readonly QueueObservation[]): boolean =>
  queues.some((q) => q.name === bridge.queueName && q.consumerCount > 0);
