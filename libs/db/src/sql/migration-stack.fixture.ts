import { createTestDatabase, type TestDatabase } from '@artemis-studio/testing';
import type { DataSource, MigrationInterface } from 'typeorm';
import { createDataSource } from '../data-source';
import { migrate } from './migrate';

/**
 * A fresh database migrated to the end with `migration` undone; `before` writes what the tables held
 * then, the migration is applied again, and `after` checks what it made of it.
 */
export async function acrossMigration(
  migration: MigrationInterface,
  before: (db: DataSource) => Promise<void>,
  after: (db: DataSource) => Promise<void>,
): Promise<void> {
  const fresh = await createTestDatabase({ migrated: false });
  const db = await createDataSource({ url: fresh.url, poolSize: 2 }).initialize();
  try {
    await migrate(db);
    const runner = db.createQueryRunner();
    try {
      await migration.down(runner);
      await before(db);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    await after(db);
  } finally {
    await db.destroy();
    await fresh.drop();
  }
}

/** A fresh database of its own for the migration suites, on real PostgreSQL. */
export class MigrationStack {
  database!: TestDatabase;
  readonly open: DataSource[] = [];
  readonly connect = async () => {
    const ds = await createDataSource({ url: this.database.url, poolSize: 3 }).initialize();
    this.open.push(ds);
    return ds;
  };

  async start(): Promise<void> {
    this.database = await createTestDatabase({ migrated: false });
  }

  async stop(): Promise<void> {
    await Promise.all(this.open.map((ds) => ds.destroy()));
    await this.database.drop();
  }
}
