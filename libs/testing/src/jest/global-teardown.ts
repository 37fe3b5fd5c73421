import { artemis } from '../broker';
import { testConfig } from '../config';
import { dropTestDatabase } from '../database';

/** @public Jest's globalSetup/globalTeardown (jest.config.js), which knip does not read. */
export default async function globalTeardown(): Promise<void> {
  const name = process.env.STUDIO_TEST_DATABASE_NAME;
  if (name && !process.env.STUDIO_TEST_KEEP_DATABASE) await dropTestDatabase(name);
  // A broker the developer started stays up; one the harness started goes, unless asked to stay.
  if (process.env.STUDIO_TEST_BROKER_STARTED_BY_HARNESS && !process.env.STUDIO_TEST_KEEP_BROKER) {
    await artemis('stop', testConfig.brokerProfile);
  }
}
