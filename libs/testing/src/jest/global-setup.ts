import { execFileSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { isBrokerRunning, startBroker } from '../broker';
import { removeStudioRings } from '../notification-rings';
import { testConfig } from '../config';
import { createTestDatabase } from '../database';

/**
 * Integration runs start from nothing of yours: a fresh, migrated database for this run, NATS
 * checked, and the test broker created and started by scripts/artemis.sh when it is not running.
 */
/** @public Jest's globalSetup/globalTeardown (jest.config.js), which knip does not read. */
export default async function globalSetup(
  _global: unknown,
  project: { displayName?: string | { name: string } },
): Promise<void> {
  // Some tests run services as real processes (to kill one): build them; a no-op when up to date.
  execFileSync('npx', ['tsc', '-b'], { cwd: join(__dirname, '..', '..', '..', '..'), stdio: 'inherit' });
  await assertReachable('NATS', testConfig.natsUrl);
  const database = await createTestDatabase({ migrated: true });
  process.env.STUDIO_TEST_DATABASE_URL = database.url;
  process.env.STUDIO_TEST_DATABASE_NAME = database.name;

  const wasRunning = await isBrokerRunning(testConfig.brokerProfile);
  const broker = await startBroker(testConfig.brokerProfile);
  await removeStudioRings(broker);
  const name = typeof project?.displayName === 'object' ? project.displayName.name : project?.displayName;
  // Integration suites register hundreds of clusters, each of which would get a ring on the one test
  // broker, each holding every notification: they run without rings, and the ring's own suite
  // turns it on. The console's end-to-end run keeps the product's default.
  if (name === 'integration') await withoutRings(database.url);
  process.env.STUDIO_TEST_BROKER_STARTED_BY_HARNESS = wasRunning ? '' : '1';
}

async function withoutRings(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO studio_setting (key, value, updated_at) VALUES ('artemis-studio.notifications.ring-size', '0'::jsonb, now())`,
    );
  } finally {
    await client.end();
  }
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
