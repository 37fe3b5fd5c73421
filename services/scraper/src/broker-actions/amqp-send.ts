import type { BrowsedPropertyType, SendMessageRequest } from '@artemis-studio/contracts';
import { Connection, message as amqp, types, type Message } from 'rhea-promise';
import { RpcError } from '@artemis-studio/bus';
import { OWNER_FAILURES } from '@artemis-studio/contracts';
import type { AmqpEndpoint, ClusterNodes } from '../cluster-parts/owned-cluster';
import type { ClusterTargetNode } from '@artemis-studio/db';

/**
 * A property as the application that reads it expects its type: AMQP's int, long, double and
 * boolean, which Artemis keeps as such (a Core reader's getLongProperty and the like). A long goes
 * as its 8 bytes, so all 64 bits arrive, not a JavaScript number's 53.
 */
export function typedValue(p: { name?: string; type: BrowsedPropertyType; value: string }): unknown {
  switch (p.type) {
    case 'string':
      return p.value;
    case 'boolean':
      return p.value === 'true';
    case 'int':
      return types.wrap_int(Number(p.value));
    case 'short':
      return types.wrap_short(Number(p.value));
    case 'byte':
      return types.wrap_byte(Number(p.value));
    case 'double':
      return types.wrap_double(Number(p.value));
    case 'float':
      return types.wrap_float(Number(p.value));
    case 'long': {
      const bytes = Buffer.alloc(8);
      bytes.writeBigInt64BE(BigInt(p.value));
      return types.wrap_long(bytes);
    }
  }
}

/**
 * Artemis' `x-opt-routing-type` annotation, a byte (its RoutingType's own numbers). Without it, a
 * message to an address with both routing types reaches every queue bound to it, whatever the
 * link's capabilities say (checked on 2.40).
 */
const ROUTING_TYPE_BYTES = { MULTICAST: 0, ANYCAST: 1 } as const;

/** The AMQP message a send asks for: text as an AMQP value, bytes as a data section. */
export function amqpMessageOf(m: SendMessageRequest): Message {
  return {
    ...(m.routingType
      ? { message_annotations: { 'x-opt-routing-type': types.wrap_byte(ROUTING_TYPE_BYTES[m.routingType]) } }
      : {}),
    body: m.bodyEncoding === 'base64' ? amqp.data_section(Buffer.from(m.body, 'base64')) : m.body,
    durable: m.durable,
    application_properties: {
      ...m.headers,
      ...Object.fromEntries(m.properties.map((p) => [p.name, typedValue(p)])),
    },
  };
}

/** The node's AMQP endpoint, or a refusal saying the cluster gives it no AMQP URL and what needs one. */
export function requiredAmqpEndpoint(
  cluster: ClusterNodes,
  node: ClusterTargetNode,
  what: string,
): AmqpEndpoint {
  const endpoint = cluster.amqpEndpoint(node);
  if (!endpoint)
    throw new RpcError(
      OWNER_FAILURES.refused,
      `node ${node.name} has no AMQP URL registered: ${what} over AMQP 1.0`,
    );
  return endpoint;
}

/** A connection of its own to a node's AMQP acceptor, as an application opens one; never reconnects. */
export async function openAmqpConnection(
  endpoint: AmqpEndpoint,
  timeoutSeconds: number,
): Promise<Connection> {
  const url = new URL(endpoint.url);
  const tls = url.protocol === 'amqps:';
  const connection = new Connection({
    host: url.hostname,
    port: Number(url.port || (tls ? 5671 : 5672)),
    ...(tls ? { transport: 'tls' as const } : { transport: 'tcp' as const }),
    username: endpoint.credential?.username,
    password: endpoint.credential?.password,
    reconnect: false,
    operationTimeoutInSeconds: timeoutSeconds,
  });
  await connection.open();
  return connection;
}

/**
 * Sends one message over its own short AMQP connection, as an application would, and resolves
 * once the broker has accepted it; a refusal (rejected, released, no such address, not allowed)
 * throws with the broker's words. A queue is named by its fully qualified name (`address::queue`).
 */
export async function sendOverAmqp(
  endpoint: AmqpEndpoint,
  to: { address: string },
  message: Message,
  timeoutSeconds = 10,
): Promise<void> {
  const connection = await openAmqpConnection(endpoint, timeoutSeconds);
  try {
    const sender = await connection.createAwaitableSender({ target: { address: to.address } });
    await sender.send(message, { timeoutInSeconds: timeoutSeconds });
  } finally {
    await connection.close().catch(() => undefined);
  }
}
