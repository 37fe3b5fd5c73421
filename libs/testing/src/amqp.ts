import { Connection } from 'rhea-promise';

/** An AMQP 1.0 client of a broker node, as an application would connect: no library reconnect. */
export function openAmqpClient(amqpUrl: string, user: string, password: string): Promise<Connection> {
  const { hostname, port } = new URL(amqpUrl);
  return new Connection({
    host: hostname,
    port: Number(port),
    username: user,
    password,
    reconnect: false,
  }).open();
}
