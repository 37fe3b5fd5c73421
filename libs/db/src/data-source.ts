import 'reflect-metadata';
import { Client, type ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DataSourceOptions {
  url: string;
  /** Pool size; the migration runner holds one connection for its lock and needs another. */
  poolSize?: number;
  applicationName?: string;
}

/**
 * A pool client whose connection dying never takes the process down. pg emits `error` on a client
 * whose connection dies while no query runs on it, and TypeORM listens only while it holds the
 * client: a gateway restarted while PostgreSQL was cut off died of such an event with no listener
 * ("Connection terminated unexpectedly", the fault suite's random round, 2026-12-02; the path was
 * not reproduced in a test). A query that was running still fails to its caller, and the pool
 * drops the broken client.
 */
class GuardedClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

export function createDataSource({
  url,
  poolSize = 10,
  applicationName = 'artemis-studio',
}: DataSourceOptions) {
  return new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'studio_migration',
    synchronize: false,
    // A failed query is thrown to its caller, which decides what it means (a name taken is no
    // error) and logs it as JSON if it is one; TypeORM's own console lines would print the query's
    // parameters and break the JSON log.
    logging: false,
    applicationName,
    // No JIT: Studio's statements are short, and where the planner's estimate crossed the JIT
    // thresholds, compiling took longer than running (an hour's chart of a 1,000-queue cluster:
    // 1.2 s of JIT in 2.9 s, ADR-0019).
    extra: { max: poolSize, connectionTimeoutMillis: 5000, Client: GuardedClient, options: '-c jit=off' },
  });
}
