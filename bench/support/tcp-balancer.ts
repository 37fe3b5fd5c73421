import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin TCP load balancer, what sits in front of the gateway replicas in a
 * deployment (a Service, nginx in stream mode): each new connection goes to the next backend, and
 * to the one after it when that one refuses, so a killed replica costs its open streams only.
 */
export class TcpBalancer {
  private next = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  port = 0;

  private constructor(private readonly backends: number[]) {
    this.server = createServer((client) => this.route(client));
  }

  static async start(backendPorts: number[]): Promise<TcpBalancer> {
    const balancer = new TcpBalancer(backendPorts);
    await new Promise<void>((resolve) => balancer.server.listen(0, '127.0.0.1', resolve));
    balancer.port = (balancer.server.address() as AddressInfo).port;
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private route(client: Socket, tried = 0): void {
    client.pause();
    client.on('error', () => undefined);
    if (tried >= this.backends.length) {
      client.destroy();
      return;
    }
    const port = this.backends[this.next++ % this.backends.length];
    const upstream = createConnection({ host: '127.0.0.1', port });
    upstream.once('error', () => {
      if (upstream.connecting) this.route(client, tried + 1);
      else client.destroy();
    });
    upstream.once('connect', () => {
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.resume();
    });
  }
}
