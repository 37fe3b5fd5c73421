import { createDataSource, migrate } from '@artemis-studio/db';
import { Backoff, sleep, withTimeout } from '@artemis-studio/timing';
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { ReadinessCheck } from '../health/readiness';
import { SERVICE_CONFIG, type ServiceConfig } from '../config/service-config';

/** PostgreSQL is not connected (yet, or any more): callers answer "unavailable", not "failed". */
export class DatabaseUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`PostgreSQL is not available (${reason})`);
  }
}

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

  constructor(@Inject(SERVICE_CONFIG) private readonly config: ServiceConfig) {
    this.dataSource = createDataSource({
      url: config.databaseUrl,
      applicationName: `artemis-studio-${config.service}`,
    });
  }

  onModuleInit(): void {
    void this.connect();
  }

  /** Resolves once connected and migrated. */
  whenReady(): Promise<DataSource> {
    return this.readyPromise;
  }

  /**
   * The data source once connected, waiting at most `waitMs` for it: a request that comes while
   * PostgreSQL is away is told so at once (DatabaseUnavailableError) instead of hanging.
   */
  async readyWithin(waitMs: number): Promise<DataSource> {
    const ready = await withTimeout(this.readyPromise, waitMs, () => null);
    if (!ready) throw new DatabaseUnavailableError(this.lastError || 'not connected yet');
    return ready;
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
    await this.dataSource.query('SELECT 1');
    return { ok: true, detail: 'connected' };
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
