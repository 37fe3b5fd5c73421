import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { testConfig, testDatabaseUrl } from './config';
import { TEST_ADMIN_PASSWORD } from './access';
import { TEST_SECRET_KEY } from './clusters';
import { canConnect, killOnExit } from './children';
import { waitFor } from './wait';

export interface ServiceProcess {
  pid: number;
  url: string;
  output(): string;
  /** SIGKILL: a crash, no shutdown hooks. */
  kill(): Promise<void>;
  /** SIGTERM: a graceful stop. */
  stop(): Promise<void>;
}

function repoRoot(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'services'))) return dir;
  }
  throw new Error('repository root not found');
}

/**
 * A service's own Node.js flags (`services/<name>/node-flags`, ADR-0029), as its image runs it:
 * a test or a benchmark of the gateway measures the gateway as deployed.
 */
export function serviceNodeFlags(name: string): string[] {
  const file = join(repoRoot(), 'services', name, 'node-flags');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .flatMap((line) => line.split(/\s+/))
    .filter(Boolean);
}

/**
 * Runs a built service (`services/<name>/dist/main.js`, built by the integration setup) as a
 * real process against the test database and NATS, and waits until it is ready (at most
 * `readyTimeoutMs`: a service restarted while a dependency is away becomes ready only after it).
 */
export async function spawnService(
  name: string,
  port: number,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  { readyTimeoutMs = 30_000 }: { readyTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  if (await canConnect(port)) {
    throw new Error(`cannot start ${name}: port ${port} is taken (a process left from an earlier run?)`);
  }
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [...serviceNodeFlags(name), ...nodeArgs, join(repoRoot(), 'services', name, 'dist', 'main.js')],
    {
      env: {
        ...process.env,
        DATABASE_URL: testDatabaseUrl(),
        NATS_URL: testConfig.natsUrl,
        STUDIO_SECRET_KEY: TEST_SECRET_KEY,
        STUDIO_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        PORT: String(port),
        NO_COLOR: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  killOnExit(child);
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // With OPERATIONAL_PORT, readiness is answered there only.
  const readyUrl = env.OPERATIONAL_PORT ? `http://127.0.0.1:${env.OPERATIONAL_PORT}` : url;
  // A service that exits while starting (a refusal) is reported at once, not at the timeout.
  const exitedEarly = exited.then(() => {
    throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
  });
  exitedEarly.catch(() => undefined);
  try {
    await Promise.race([
      exitedEarly,
      waitFor(
        `${name} on :${port} to be ready`,
        async () =>
          // Once it has exited, exitedEarly has said so: stop polling.
          child.exitCode !== null ||
          (await fetch(`${readyUrl}/readyz`).catch(() => undefined))?.status === 200,
        { timeoutMs: readyTimeoutMs, intervalMs: 100 },
      ),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    // What the service said while it did not turn ready: which of its checks it waited on.
    if (child.exitCode === null && err instanceof Error)
      err.message += `\n--- ${name}'s last output:\n${output.slice(-4000)}`;
    throw err;
  }
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return {
    pid: child.pid!,
    url,
    output: () => output,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}

/**
 * Runs a built service with exactly `env` (nothing of this process's environment but PATH) and
 * waits for it to exit by itself: what a service does with a configuration it must refuse.
 */
export async function runServiceToExit(
  name: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [...serviceNodeFlags(name), join(repoRoot(), 'services', name, 'dist', 'main.js')],
    {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  killOnExit(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
