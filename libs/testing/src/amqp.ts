import { Connection } from 'rhea-promise';

/**
 * An AMQP 1.0 client of a broker node, as an application would connect: no library reconnect.
 * Without a user it signs in anonymously; `containerId` is what the broker reports as the
 * notifications' `_AMQ_Client_ID` (rhea makes one up otherwise).
 */
export function openAmqpClient(
  amqpUrl: string,
  user?: string,
  password?: string,
  containerId?: string,
): Promise<Connection> {
  const { hostname, port } = new URL(amqpUrl);
  return new Connection({
    host: hostname,
    port: Number(port),
    username: user,
    password,
    reconnect: false,
    ...(containerId ? { container_id: containerId } : {}),
  }).open();
}
