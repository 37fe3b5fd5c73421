import type { BrokerProfile } from './broker';
import { brokerExec, brokerJolokia } from './broker-messages';

export interface NotificationQueue {
  name: string;
  ringSize: number;
  messageCount: number;
  consumers: number;
  /** What the ring discarded: added, and neither acknowledged, expired, killed nor held. */
  discarded: number;
}

/** Every queue on the first broker's `activemq.notifications`: subscriptions and Studio's rings. */
export async function notificationQueues(broker: BrokerProfile): Promise<NotificationQueue[]> {
  const answer = await brokerJolokia(broker, {
    type: 'read',
    mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="activemq.notifications",subcomponent=queues,routing-type="multicast",queue=*`,
    attribute: [
      'Name',
      'RingSize',
      'MessageCount',
      'ConsumerCount',
      'MessagesAdded',
      'MessagesAcknowledged',
      'MessagesExpired',
      'MessagesKilled',
    ],
  });
  // A pattern that matches nothing is "not found".
  if (answer.status === 404) return [];
  if (answer.status !== 200) throw new Error(`notification queues not read: ${answer.error}`);
  return Object.values(answer.value as Record<string, Record<string, number | string>>).map((q) => ({
    name: String(q.Name),
    ringSize: Number(q.RingSize),
    messageCount: Number(q.MessageCount),
    consumers: Number(q.ConsumerCount),
    discarded:
      Number(q.MessagesAdded) -
      Number(q.MessagesAcknowledged) -
      Number(q.MessagesExpired) -
      Number(q.MessagesKilled) -
      Number(q.MessageCount),
  }));
}

/**
 * Removes every ring Studio left on the test broker. A test run's clusters vanish with its
 * database, so their rings would otherwise stay, each filling with every notification the broker
 * sends (up to its bound) for every later run on the same broker.
 */
export async function removeStudioRings(broker: BrokerProfile): Promise<number> {
  const rings = (await notificationQueues(broker)).filter((q) => q.name.startsWith('artemis-studio.'));
  for (const ring of rings)
    await brokerExec(broker, 'destroyQueue(java.lang.String,boolean)', [ring.name, true]);
  return rings.length;
}
