import 'reflect-metadata';
import { Client, Pool, type ClientConfig } from 'pg';
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

/** How long a statement pool's session stays open unused. */
const STATEMENT_SESSION_IDLE_MS = 10 * 60_000;

/** The sessions prepared statements run on (`createStatementPool`, `preparedRowsOf`). */
export type StatementPool = Pool;

/**
 * A small pool for prepared statements, whose sessions plan each statement once for every value
 * (`plan_cache_mode=force_generic_plan`) instead of at each run. For reads by `seq` of a table
 * partitioned by day (broker events, ADR-0025) planning is most of the cost, and grows with the
 * days kept; PostgreSQL's own choice keeps planning the replay at each run, as a plan made for the
 * run's values looks cheaper. Only statements whose best plan is the same for every value belong
 * here, and no other statement runs on these sessions.
 */
export function createStatementPool({
  url,
  poolSize = 4,
  applicationName = 'artemis-studio',
}: DataSourceOptions): StatementPool {
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    // A session's plans go with it: closed after pg's default 10 s idle, a reconnect a minute later
    // planned every day again (at a year kept, about 200 ms). Kept, a session holds its plans in
    // PostgreSQL: about 15 MB at 369 days, 0.4 MB at the default three (docs/operations.md).
    idleTimeoutMillis: STATEMENT_SESSION_IDLE_MS,
    application_name: applicationName,
    Client: GuardedClient,
    options: '-c jit=off -c plan_cache_mode=force_generic_plan',
  });
  // The pool says so when an idle connection dies, and drops it; with no listener, the event
  // would end the process (as GuardedClient's does for a single client).
  pool.on('error', () => undefined);
  return pool;
}
