import type { Message } from 'rhea-promise';
import { openAmqpClient } from './amqp';
import type { BrokerProfile } from './broker';

export interface JolokiaAnswer {
  status: number;
  value: unknown;
  error?: string;
}

/** One Jolokia request (or a bulk of them) to the profile's first broker, as its administrator. */
export async function brokerJolokia<T extends object | object[]>(
  broker: BrokerProfile,
  body: T,
): Promise<T extends unknown[] ? JolokiaAnswer[] : JolokiaAnswer> {
  const response = await fetch(broker.nodes[0].jolokiaUrl, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: 'http://127.0.0.1',
      Authorization: `Basic ${Buffer.from(`${broker.user}:${broker.password}`).toString('base64')}`,
    },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T extends unknown[] ? JolokiaAnswer[] : JolokiaAnswer;
}

/** An exec on the first broker's own MBean, as its administrator; throws unless it succeeded. */
export async function brokerExec(
  broker: BrokerProfile,
  operation: string,
  args: unknown[],
): Promise<unknown> {
  const answer = await brokerJolokia(broker, {
    type: 'exec',
    mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}"`,
    operation,
    arguments: args,
  });
  if (answer.status !== 200) throw new Error(`${operation} failed: ${answer.error}`);
  return answer.value;
}

/** The status and error code of a gateway answer that is an error. */
export const errorOf = async (response: Response): Promise<{ status: number; code: string }> => ({
  status: response.status,
  code: ((await response.json()) as { error: { code: string } }).error.code,
});

/** The MBean of an anycast queue on its own address, on the profile's first broker. */
export const queueMbean = (broker: BrokerProfile, queue: string, address = queue) =>
  `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="${address}",subcomponent=queues,routing-type="anycast",queue="${queue}"`;

/** How many messages the broker holds in the queue now (MessageCount), or null when it has no such queue. */
export async function depthOf(broker: BrokerProfile, queue: string, address = queue): Promise<number | null> {
  const answer = await brokerJolokia(broker, {
    type: 'read',
    mbean: queueMbean(broker, queue, address),
    attribute: 'MessageCount',
  });
  return answer.status === 200 ? (answer.value as number) : null;
}

/**
 * Sends `count` durable messages to the queue over AMQP, `message(i)` each, a window of them in
 * flight at a time (one at a time would take minutes for ten thousand); resolves once the broker
 * has accepted every one.
 */
export async function fillQueue(
  broker: BrokerProfile,
  queue: string,
  count: number,
  message: (i: number) => Message = (i) => ({ body: `message ${i}`, durable: true }),
): Promise<void> {
  const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
  try {
    const sender = await client.createAwaitableSender({
      target: { address: queue, capabilities: ['queue'] },
    });
    const window = 200;
    for (let at = 0; at < count; at += window) {
      const sends: Promise<unknown>[] = [];
      for (let i = at; i < Math.min(count, at + window); i++) sends.push(sender.send(message(i)));
      await Promise.all(sends);
    }
  } finally {
    await client.close();
  }
}

/**
 * Consumes every message of the queue and answers their bodies, in order: stops once the queue
 * has been quiet for `quietMs` (nothing more arrives after the last message).
 */
export async function drainQueue(broker: BrokerProfile, queue: string, quietMs = 1_000): Promise<string[]> {
  const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
  const bodies: string[] = [];
  try {
    let quiet!: () => void;
    const ended = new Promise<void>((resolve) => (quiet = resolve));
    let timer = setTimeout(quiet, quietMs * 3);
    const receiver = await client.createReceiver({
      source: { address: queue, capabilities: ['queue'] },
      credit_window: 500,
      onMessage: (context) => {
        const body = context.message?.body as unknown;
        bodies.push(Buffer.isBuffer(body) ? body.toString('utf8') : String(body));
        clearTimeout(timer);
        timer = setTimeout(quiet, quietMs);
      },
      onError: () => undefined,
    });
    await ended;
    await receiver.close();
  } finally {
    await client.close();
  }
  return bodies;
}
