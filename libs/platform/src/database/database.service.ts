import { createDataSource, migrate } from '@artemis-studio/db';
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { ReadinessCheck } from '../health/readiness';
import { SERVICE_CONFIG, type ServiceConfig } from '../config/service-config';

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
  private stopped = false;
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

  private async connect(): Promise<void> {
    for (let delay = 500; !this.stopped; delay = Math.min(delay * 2, 10_000)) {
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
        this.logger.warn(`PostgreSQL not available (${this.lastError}); retrying in ${delay} ms`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async check(): Promise<{ ok: boolean; detail: string }> {
    if (this.lastError) return { ok: false, detail: this.lastError };
    await this.dataSource.query('SELECT 1');
    return { ok: true, detail: 'connected' };
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
