import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canConnect, killOnExit } from './children';
import { reservedPort as freePort } from './ports';
import { waitFor } from './wait';

export interface PrivateNats {
  url: string;
  pid: number;
  /**
   * SIGKILL, then, `downMs` later, the same server again on the same port and store: a crashed
   * pod's restart, or an outage of that length.
   */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const NATS_SERVER = process.env.STUDIO_TEST_NATS_SERVER ?? '/usr/sbin/nats-server';

/**
 * A NATS server with JetStream of this test's own, on a free port with a temporary store, for
 * tests that need stream limits or outages the shared server must not see.
 */
export async function startPrivateNats(options: { config?: string } = {}): Promise<PrivateNats> {
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'studio-nats-'));
  // A server configuration of the test's own (accounts, users), beside the flags.
  const extra: string[] = [];
  if (options.config) {
    const file = join(store, 'nats.conf');
    writeFileSync(file, options.config);
    extra.push('-c', file);
  }
  let server = await runNats(port, store, extra);
  return {
    url: `nats://127.0.0.1:${port}`,
    get pid() {
      return server.pid;
    },
    restart: async (downMs = 0) => {
      await server.stop('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, downMs));
      server = await runNats(port, store, extra);
    },
    stop: async () => {
      await server.stop('SIGTERM');
      rmSync(store, { recursive: true, force: true });
    },
  };
}

export interface PrivateNatsCluster {
  /** Every node's client URL, as a client is given them. */
  urls: string[];
  /** Each node by its server name (`n1`, `n2`, …), as JetStream names a stream's leader and replicas. */
  node(name: string): { url: string; kill(): Promise<void>; start(): Promise<void> };
  stop(): Promise<void>;
}

/**
 * A cluster of `size` NATS servers with JetStream on loopback, as Kubernetes runs three: for tests
 * of what survives the loss of one node.
 */
export async function startPrivateNatsCluster(size = 3): Promise<PrivateNatsCluster> {
  const nodes = await Promise.all(
    Array.from({ length: size }, async (_, i) => ({
      name: `n${i + 1}`,
      port: await freePort(),
      clusterPort: await freePort(),
      store: mkdtempSync(join(tmpdir(), `studio-nats-n${i + 1}-`)),
    })),
  );
  const routes = nodes.map((n) => `nats://127.0.0.1:${n.clusterPort}`).join(',');
  const args = (n: (typeof nodes)[number]) => [
    ...['--server_name', n.name, '--cluster_name', 'studio-test'],
    ...['--cluster', `nats://127.0.0.1:${n.clusterPort}`, '--routes', routes],
  ];
  const running = new Map<string, Awaited<ReturnType<typeof runNats>>>();
  const started = await Promise.allSettled(
    nodes.map(async (n) => running.set(n.name, await runNats(n.port, n.store, args(n)))),
  );
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    // The nodes that did start would outlive the test (and keep Jest from exiting).
    await Promise.all([...running.values()].map((r) => r.stop('SIGTERM')));
    for (const n of nodes) rmSync(n.store, { recursive: true, force: true });
    throw failed.reason;
  }
  const node = (name: string) => {
    const n = nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no NATS node ${name}`);
    return {
      url: `nats://127.0.0.1:${n.port}`,
      kill: async () => {
        await running.get(name)?.stop('SIGKILL');
        running.delete(name);
      },
      start: async () => void running.set(name, await runNats(n.port, n.store, args(n))),
    };
  };
  return {
    urls: nodes.map((n) => `nats://127.0.0.1:${n.port}`),
    node,
    stop: async () => {
      await Promise.all([...running.values()].map((r) => r.stop('SIGTERM')));
      for (const n of nodes) rmSync(n.store, { recursive: true, force: true });
    },
  };
}

async function runNats(port: number, store: string, extra: string[] = []) {
  const child = killOnExit(
    spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store, ...extra], {
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  // Its last words, so a server that exits at start says why (a port taken, a bad flag).
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => (said = `${said}${chunk.toString()}`.slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor('the private NATS server', async () => {
    if (child.exitCode !== null)
      throw new Error(`${NATS_SERVER} on port ${port} exited with ${child.exitCode}: ${said.trim()}`);
    return canConnect(port);
  });
  return {
    pid: child.pid!,
    stop: async (signal: NodeJS.Signals) => {
      child.kill(signal);
      await exited;
    },
  };
}
