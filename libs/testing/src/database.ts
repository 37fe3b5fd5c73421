import { createDataSource, migrate } from '@artemis-studio/db';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { testConfig } from './config';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database with a unique name; `migrated` applies the schema too. */
export async function createTestDatabase({ migrated }: { migrated: boolean }): Promise<TestDatabase> {
  const name = `studio_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(testConfig.adminDatabaseUrl, name);
  if (migrated) {
    const dataSource = await createDataSource({ url, poolSize: 2 }).initialize();
    try {
      await migrate(dataSource);
    } finally {
      await dataSource.destroy();
    }
  }
  return { name, url, drop: () => dropTestDatabase(name) };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testConfig.adminDatabaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${redact(testConfig.adminDatabaseUrl)}: ${(err as Error).message}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
