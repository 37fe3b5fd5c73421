import { openAmqpClient } from './amqp';
import type { BrokerProfile } from './broker';
import { brokerExec } from './broker-messages';

/**
 * Dead-letters `count` messages the way production does: sent to `work`, rejected by its consumer
 * with one delivery attempt allowed, and so moved by the broker to its dead-letter queue
 * (`<work>.DLQ`, or `dlq` shared with other work queues) with their origin (`_AMQ_ORIG_QUEUE`).
 * Resolves once the consumer has rejected them all; returns the DLQ's name.
 */
export async function deadLetter(
  broker: BrokerProfile,
  work: string,
  count: number,
  dlq = `${work}.DLQ`,
  /** The application properties of the i-th message, for a filter to pick some of them. */
  properties: (i: number) => Record<string, string | number> = () => ({}),
): Promise<string> {
  await brokerExec(broker, 'addAddressSettings(java.lang.String,java.lang.String)', [
    work,
    JSON.stringify({ maxDeliveryAttempts: 1, deadLetterAddress: dlq }),
  ]);
  // Both made as an application's configured queues are: an auto-created work queue would be
  // auto-deleted once its rejected messages left it, and a redrive would have nowhere to go.
  for (const name of [work, dlq])
    await brokerExec(broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST' }),
      true,
    ]);
  const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
  try {
    const sender = await client.createAwaitableSender({ target: { address: work, capabilities: ['queue'] } });
    // Stamped as a JMS producer stamps every message: the broker's timestamp is its creation time.
    for (let i = 0; i < count; i++)
      await sender.send({
        // An id of its own, as a JMS producer gives each message: a body filter's job names it so.
        message_id: `${work}-${i}`,
        body: `poison ${i}`,
        creation_time: new Date(),
        application_properties: properties(i),
      });
    let rejected = 0;
    let allRejected!: () => void;
    const done = new Promise<void>((resolve) => (allRejected = resolve));
    const receiver = await client.createReceiver({
      source: { address: work, capabilities: ['queue'] },
      autoaccept: false,
      credit_window: 10,
      onMessage: (context) => {
        context.delivery!.reject();
        if (++rejected === count) allRejected();
      },
      onError: () => undefined,
    });
    await done;
    await receiver.close();
  } finally {
    await client.close();
  }
  return dlq;
}
