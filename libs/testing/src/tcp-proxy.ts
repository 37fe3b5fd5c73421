import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP proxy that can cut a dependency off, as the service would see it, without stopping
 * the machine's server that other tests use. Two kinds of cut:
 * - `block()` drops every open connection and refuses new ones until `unblock()`: an outage the
 *   service is told of at once.
 * - `silence()` keeps every connection open and lets nothing through, either way, until
 *   `restore()`: a network cut nobody announces (a partition, a frozen host), which only a
 *   heartbeat's absence reveals.
 */
export class TcpProxy {
  private blocked = false;
  private silent = false;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  port = 0;

  private constructor(targetHost: string, targetPort: number) {
    this.server = createServer((client) => {
      if (this.blocked) return client.destroy();
      const upstream = createConnection({ host: targetHost, port: targetPort });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      forward(client, upstream, () => this.silent);
      forward(upstream, client, () => this.silent);
    });
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as AddressInfo).port;
    return proxy;
  }

  block(): void {
    this.blocked = true;
    for (const socket of this.sockets) socket.destroy();
  }

  unblock(): void {
    this.blocked = false;
  }

  silence(): void {
    this.silent = true;
  }

  /**
   * The line works again. The connections that were open through the cut are dropped: what was lost
   * leaves their protocol state torn, and a peer that had given up on them has forgotten them.
   */
  restore(): void {
    for (const socket of this.sockets) socket.destroy();
    this.silent = false;
  }

  async stop(): Promise<void> {
    this.block();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** `from` to `to` with backpressure; while `silent()`, read and discarded, as a cut line loses it. */
function forward(from: Socket, to: Socket, silent: () => boolean): void {
  from.on('data', (chunk) => {
    if (silent() || to.write(chunk)) return;
    from.pause();
    to.once('drain', () => from.resume());
  });
}
