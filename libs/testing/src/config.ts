/**
 * Where the integration tests find real PostgreSQL, NATS and Artemis. Defaults match the
 * development and CI machines; override with the environment.
 */
export const testConfig = {
  /** A database the harness may create and drop other databases from. */
  adminDatabaseUrl: process.env.STUDIO_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.STUDIO_TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  /** The scripts/artemis.sh profile the tests run against. */
  brokerProfile: process.env.STUDIO_TEST_BROKER_PROFILE ?? 'test',
};

/** The fresh database of this test run, created and migrated by the global setup. */
export function testDatabaseUrl(): string {
  const url = process.env.STUDIO_TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'STUDIO_TEST_DATABASE_URL is not set: run integration tests through jest --selectProjects integration',
    );
  return url;
}
