import { createDataSource, createStatementPool, migrate, ping, type StatementPool } from '@artemis-studio/db';
import { Backoff, sleep, withTimeout } from '@artemis-studio/timing';
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { ReadinessCheck } from '../health/readiness';
import { SERVICE_CONFIG, type ServiceConfig } from '../config/service-config';

/** PostgreSQL is not connected (yet, or any more): callers answer "unavailable", not "failed". */
export class DatabaseUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`PostgreSQL is not available (${reason})`);
  }
}

/**
 * How long a request (HTTP or bus) waits for the first connection before it is answered
 * "unavailable". It matters only while the service starts: once connected, there is nothing to
 * wait for. Long enough for a request that reaches a replica in its first seconds (bus requests
 * are routed before readiness) to be served; short enough that a console asking a gateway whose
 * PostgreSQL is away is told so, not left hanging.
 */
const REQUEST_WAIT_MS = 2000;

/**
 * The service's PostgreSQL connection. Connects (and migrates) in the background with backoff,
 * so the service boots and says "not ready" while PostgreSQL is away instead of crash-looping.
 */
@Injectable()
export class DatabaseService implements OnModuleInit, OnApplicationShutdown, ReadinessCheck {
  readonly name = 'database';
  readonly dataSource: DataSource;
  private readonly logger = new Logger('Database');
  private lastError = 'connecting';
  /** Aborted at shutdown: ends the connect loop, and its sleep at once. */
  private readonly stopping = new AbortController();
  private resolveReady!: (ds: DataSource) => void;
  private readonly readyPromise = new Promise<DataSource>((resolve) => (this.resolveReady = resolve));

  /** Sessions for prepared statements, planned once for every value; none open until used. */
  private readonly statementPool: StatementPool;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: ServiceConfig) {
    const options = { url: config.databaseUrl, applicationName: `artemis-studio-${config.service}` };
    this.dataSource = createDataSource(options);
    this.statementPool = createStatementPool(options);
  }

  onModuleInit(): void {
    void this.connect();
  }

  /** Resolves once connected and migrated. */
  whenReady(): Promise<DataSource> {
    return this.readyPromise;
  }

  /**
   * The data source for a request: once connected, at once; before, after at most REQUEST_WAIT_MS,
   * or DatabaseUnavailableError (answered 503), never a hang.
   */
  async forRequest(): Promise<DataSource> {
    const ready = await withTimeout(this.readyPromise, REQUEST_WAIT_MS, () => null);
    if (!ready) throw new DatabaseUnavailableError(this.lastError || 'not connected yet');
    return ready;
  }

  /** The statement pool for a request's prepared statements (`preparedRowsOf`), as `forRequest`. */
  async forPrepared(): Promise<StatementPool> {
    await this.forRequest();
    return this.statementPool;
  }

  /** Runs `work` in one transaction of a request's connection: it commits whole or not at all. */
  async transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return (await this.forRequest()).transaction(work);
  }

  private async connect(): Promise<void> {
    const backoff = new Backoff({ minMs: 500, maxMs: 10_000 });
    while (!this.stopping.signal.aborted) {
      try {
        if (!this.dataSource.isInitialized) await this.dataSource.initialize();
        if (this.config.migrateOnStart) {
          const applied = await migrate(this.dataSource);
          if (applied.length) this.logger.log(`applied migrations: ${applied.join(', ')}`);
        }
        this.lastError = '';
        this.resolveReady(this.dataSource);
        return;
      } catch (err) {
        this.lastError = (err as Error).message;
        const delay = backoff.next();
        this.logger.warn(`PostgreSQL not available (${this.lastError}); retrying in ${delay} ms`);
        await sleep(delay, this.stopping.signal);
      }
    }
  }

  async check(): Promise<{ ok: boolean; detail: string }> {
    if (this.lastError) return { ok: false, detail: this.lastError };
    await ping(this.dataSource);
    return { ok: true, detail: 'connected' };
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.statementPool.end();
  }
}
