import { killOnExit } from '@artemis-studio/testing';
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { once } from './sse-load-process';

/**
 * A loopback TCP relay in its own process (tcp-relay-process.mjs): a round-robin balancer in front of the
 * gateway replicas, what a Service or nginx in stream mode is in a deployment, or a proxy in front
 * of PostgreSQL that can cut it off without stopping the machine's server.
 */
export class TcpRelay {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  /** Each new connection to the next of `ports`, or to the one after when that one refuses. */
  static balance(ports: number[]): Promise<TcpRelay> {
    return TcpRelay.start(['balance', ...ports.map(String)]);
  }

  /** Every connection to `port`. */
  static proxy(port: number): Promise<TcpRelay> {
    return TcpRelay.start(['proxy', String(port)]);
  }

  private static async start(args: string[]): Promise<TcpRelay> {
    const child = killOnExit(fork(join(__dirname, 'tcp-relay-process.mjs'), args, { stdio: 'inherit' }));
    const { port } = await once<{ port: number }>(child, 'listening');
    return new TcpRelay(child, port);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Drops every open connection and refuses new ones until unblock(). */
  block(): Promise<void> {
    return this.tell('block');
  }

  unblock(): Promise<void> {
    return this.tell('unblock');
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }

  private async tell(type: string): Promise<void> {
    const done = once(this.child, 'done');
    this.child.send({ type });
    await done;
  }
}
