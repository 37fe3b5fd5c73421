import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killOnExit } from './children';
import { reservedPort as freePort } from './ports';
import { waitFor } from './wait';

/** Debian's package (prometheus-alertmanager), installed by .ci/run when missing. */
const ALERTMANAGER_BINARY = '/usr/bin/prometheus-alertmanager';

interface AlertmanagerAlert {
  labels: Record<string, string>;
  status: { state: string };
  endsAt: string;
  /** Where the alert came from: its page in the console, when Studio knows the console's URL. */
  generatorURL?: string;
}

export interface TestAlertmanager {
  url: string;
  /** Its API's view of every alert it holds (active, silenced, inhibited). */
  alerts(): Promise<AlertmanagerAlert[]>;
  stop(): Promise<void>;
}

/**
 * A real Alertmanager on a free port, alone (no cluster peers), routing everything to a receiver
 * that sends nowhere: what the tests read is its API, where an alert Studio posted shows with its
 * labels and state.
 */
export async function startAlertmanager(): Promise<TestAlertmanager> {
  if (!existsSync(ALERTMANAGER_BINARY))
    throw new Error(
      `${ALERTMANAGER_BINARY} is missing: apt-get install prometheus-alertmanager (.ci/run does)`,
    );
  const dir = await mkdtemp(join(tmpdir(), 'studio-alertmanager-'));
  await writeFile(
    join(dir, 'alertmanager.yml'),
    'route:\n  receiver: nowhere\nreceivers:\n  - name: nowhere\n',
  );
  const port = await freePort();
  const child = killOnExit(
    spawn(
      ALERTMANAGER_BINARY,
      [
        `--config.file=${join(dir, 'alertmanager.yml')}`,
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--cluster.listen-address=',
      ],
      { stdio: 'ignore' },
    ),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    'Alertmanager to be ready',
    async () => (await fetch(`${url}/-/ready`).catch(() => null))?.ok,
    {
      timeoutMs: 20_000,
    },
  );
  return {
    url,
    alerts: async () => (await (await fetch(`${url}/api/v2/alerts`)).json()) as AlertmanagerAlert[],
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
