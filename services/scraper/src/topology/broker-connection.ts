import { count, flag, quotedKey } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import type { QueueObservation } from '../queues/queue-observation';

/** What an AMQP federation over a broker connection has moved, both ways, since the broker started. */
interface FederationTotals {
  messagesSent: number;
  messagesReceived: number;
}

/**
 * One broker connection (AMQP) of one node, as a tier-B tick read it (docs/artemis.md): one this
 * node opens (outgoing, from its broker.xml), or one a peer opened to it (incoming: the broker
 * lists it only while the peer is attached).
 */
export interface BrokerConnectionReading {
  name: string;
  direction: 'outgoing' | 'incoming';
  started: boolean;
  /** Connected to its peer now: false while a started connection retries. */
  connected: boolean;
  /** For an incoming one, the broker node id of the peer that opened it. */
  peerBrokerNodeId: string | null;
  /** Its federation's totals; null when it federates nothing. */
  federation: FederationTotals | null;
}

/**
 * A wildcard read of every MBean of the broker connections, both the node's own and its peers'
 * (`component=*broker-connections` takes `remote-broker-connections` too), with their federations:
 * the fifth read of each tier-B request. Its `Uri` is not read: it may carry a password.
 */
export const BROKER_CONNECTION_REQUEST: JolokiaRequest = {
  type: 'read',
  mbean: 'org.apache.activemq.artemis:broker=*,component=*broker-connections,*',
  // `NodeId` is a peer's connection's only figure: Jolokia leaves out of a wildcard read an MBean
  // that has none of the attributes named, and without it an attached peer would not be listed.
  attribute: ['Started', 'Connected', 'MessagesSent', 'MessagesReceived', 'NodeId'],
};

/** An unquoted key of an MBean name (`component=broker-connections`), or null. */
const plainKey = (mbean: string, key: string): string | null =>
  new RegExp(`[:,]${key}=([^,"]*)(?:,|$)`).exec(mbean)?.[1] ?? null;

/**
 * A node's broker connections; none on a broker without (404). Throws when the read failed: they
 * are then unknown, not gone. A federation's own MBean (`serviceCatagory=federations`, the
 * broker's spelling) gives its connection's totals; its policies' and links' MBeans are parts of
 * those totals and are passed over.
 */
export function parseBrokerConnections(answer: JolokiaResponse | undefined): BrokerConnectionReading[] {
  if (answer?.status === 404) return [];
  if (!answer || answer.status !== 200)
    throw new Error(`broker connection read failed: ${answer?.error ?? 'no answer'}`);
  const connections = new Map<string, BrokerConnectionReading>();
  const federations = new Map<string, FederationTotals>();
  for (const [mbean, a] of Object.entries((answer.value ?? {}) as Record<string, Record<string, unknown>>)) {
    const name = quotedKey(mbean, 'name');
    const direction = plainKey(mbean, 'component') === 'remote-broker-connections' ? 'incoming' : 'outgoing';
    const peerBrokerNodeId = direction === 'incoming' ? quotedKey(mbean, 'nodeId') : null;
    const key = `${direction}|${peerBrokerNodeId ?? ''}|${name}`;
    if (name === null) throw new Error(`broker connection ${mbean} could not be read`);
    const service = plainKey(mbean, 'serviceCatagory');
    if (service === null) {
      // The broker lists a peer's connection only while it is attached; it has no state of its own.
      const started = direction === 'incoming' ? true : flag(a.Started);
      const connected = direction === 'incoming' ? true : flag(a.Connected);
      if (started === null || connected === null)
        throw new Error(`broker connection ${name} could not be read`);
      connections.set(key, { name, direction, started, connected, peerBrokerNodeId, federation: null });
    } else if (service === 'federations' && !mbean.includes(',policyName=')) {
      const messagesSent = count(a.MessagesSent);
      const messagesReceived = count(a.MessagesReceived);
      if (messagesSent === null || messagesReceived === null)
        throw new Error(`the federation of broker connection ${name} could not be read`);
      federations.set(key, { messagesSent, messagesReceived });
    }
  }
  return [...connections].map(([key, c]) => ({ ...c, federation: federations.get(key) ?? null }));
}

/** What waits to be mirrored over a broker connection: the depth of the queue the broker keeps for it. */
export interface MirrorBacklog {
  queue: string;
  messages: number;
  oldestMessageAt: Date | null;
}

/**
 * A mirror's backlog: Artemis holds what an AMQP mirror has yet to send in the internal queue
 * `$ACTIVEMQ_ARTEMIS_MIRROR_<connection>` (docs/artemis.md); null when the connection mirrors
 * nothing (it has no such queue).
 */
export function mirrorBacklogOf(
  connection: BrokerConnectionReading,
  queues: readonly QueueObservation[],
): MirrorBacklog | null {
  if (connection.direction !== 'outgoing') return null;
  const queue = queues.find((q) => q.name === `$ACTIVEMQ_ARTEMIS_MIRROR_${connection.name}`);
  return queue
    ? { queue: queue.name, messages: queue.messageCount, oldestMessageAt: queue.firstMessageAt }
    : null;
}
