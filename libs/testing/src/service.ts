import { createServiceApp } from '@artemis-studio/platform';
import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { TEST_SECRET_KEY } from './clusters';
import { testConfig, testDatabaseUrl } from './config';
import { runServiceToExit } from './process';
import { waitFor } from './wait';

export interface RunningService {
  app: INestApplication;
  url: string;
  close(): Promise<void>;
}

/**
 * Boots a service's root module on a free port against the test database and NATS; `env`
 * overrides the environment the service reads once at boot (to point it at a dead dependency).
 */
export async function startService(
  rootModule: unknown,
  env: Record<string, string> = {},
): Promise<RunningService> {
  const saved = { ...process.env };
  Object.assign(
    process.env,
    {
      DATABASE_URL: testDatabaseUrl(),
      NATS_URL: testConfig.natsUrl,
      PORT: '0',
      STUDIO_SECRET_KEY: TEST_SECRET_KEY,
    },
    env,
  );
  try {
    const app = await createServiceApp(rootModule, { quiet: true });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
  } finally {
    process.env = saved;
  }
}

/** The foundation's promise for every service: it boots, is live, becomes ready and serves metrics. */
export async function expectServiceToServe(rootModule: unknown): Promise<void> {
  const service = await startService(rootModule);
  try {
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const report = await waitFor('readiness', async () => {
      const response = await fetch(`${service.url}/readyz`);
      return response.status === 200 && response.json();
    });
    expect(report).toEqual({
      ready: true,
      checks: {
        database: { ok: true, detail: 'connected' },
        bus: { ok: true, detail: 'connected' },
        installation: { ok: true, detail: 'alone on its NATS' },
      },
    });
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toContain('process_cpu_user_seconds_total');
  } finally {
    await service.close();
  }
}

/**
 * A service stopped while it is still starting (a rolling update, a crash loop) stops cleanly:
 * nothing it began rejects unhandled afterwards. Stops at once, then waits `settleMs`.
 */
export async function expectServiceToStopWhileStarting(rootModule: unknown, settleMs = 1500): Promise<void> {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  try {
    const service = await startService(rootModule);
    await service.close();
    await new Promise((r) => setTimeout(r, settleMs));
    expect(unhandled.map((e) => (e as Error).message ?? String(e))).toEqual([]);
  } finally {
    process.off('unhandledRejection', record);
  }
}

/**
 * A built service given a bad environment: it must start nothing, exit 78, and print one line per
 * problem naming exactly `variables`, with no stack trace and no secret.
 */
export async function expectServiceToRefuseEnvironment(
  name: string,
  env: Record<string, string>,
  variables: string[],
): Promise<void> {
  const { code, stdout, stderr } = await runServiceToExit(name, env);
  const lines = stderr.trim().split('\n');
  expect({ code, stdout }).toEqual({ code: 78, stdout: '' });
  for (const line of lines) expect(line).toMatch(/^invalid environment: [A-Z_]+: \S/);
  expect(lines.map((l) => l.split(': ')[1]).sort()).toEqual([...variables].sort());
  // The variables that carry secrets: the key itself, and a password in the database URL.
  for (const secret of [env.STUDIO_SECRET_KEY, env.DATABASE_URL])
    if (secret) expect(stderr).not.toContain(secret);
}
