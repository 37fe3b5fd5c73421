import { createServer } from 'node:net';

/**
 * Ports for the servers a test starts as processes of their own (NATS, Alertmanager), below
 * Linux's ephemeral range (32768 and up). A port the kernel gives for `listen(0)` is in that range,
 * and is free only until the process binds it: meanwhile a busy test process's outgoing connection
 * (to PostgreSQL, NATS, a broker) can be given the same number as its local port, and the server
 * then exits on "address in use" (a three-node NATS cluster failed so in CI). Below the range only
 * an explicit bind takes a port, and none is handed out twice by one process.
 */
const FIRST = 24_000;
const COUNT = 8_000;
const handedOut = new Set<number>();

export async function reservedPort(): Promise<number> {
  for (let tries = 0; tries < 500; tries++) {
    const port = FIRST + Math.floor(Math.random() * COUNT);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${FIRST} and ${FIRST + COUNT - 1} after 500 tries`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
