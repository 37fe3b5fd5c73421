import { execFileSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { isBrokerRunning, startBroker } from '../broker';
import { testConfig } from '../config';
import { createTestDatabase } from '../database';

/**
 * Integration runs start from nothing of yours: a fresh, migrated database for this run, NATS
 * checked, and the test broker created and started by scripts/artemis.sh when it is not running.
 */
/** @public Jest's globalSetup/globalTeardown (jest.config.js), which knip does not read. */
export default async function globalSetup(): Promise<void> {
  // Some tests run services as real processes (to kill one): build them; a no-op when up to date.
  execFileSync('npx', ['tsc', '-b'], { cwd: join(__dirname, '..', '..', '..', '..'), stdio: 'inherit' });
  await assertReachable('NATS', testConfig.natsUrl);
  const database = await createTestDatabase({ migrated: true });
  process.env.STUDIO_TEST_DATABASE_URL = database.url;
  process.env.STUDIO_TEST_DATABASE_NAME = database.name;

  const wasRunning = await isBrokerRunning(testConfig.brokerProfile);
  await startBroker(testConfig.brokerProfile);
  process.env.STUDIO_TEST_BROKER_STARTED_BY_HARNESS = wasRunning ? '' : '1';
}

function assertReachable(what: string, url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) }, () => {
      socket.end();
      resolve();
    });
    socket.setTimeout(3000, () => socket.destroy(new Error('timed out')));
    socket.on('error', (err) => reject(new Error(`${what} is not reachable at ${url}: ${err.message}`)));
  });
}
