import type { DataSource } from 'typeorm';

/** Serialises migrations across replicas that start at once: one migrates, the rest wait, then find nothing to do. */
const MIGRATION_LOCK = 'artemis-studio:migrations';

/** Applies pending migrations under a PostgreSQL advisory lock; returns the names applied. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    // A session lock dies with its connection, so a failed unlock cannot strand the others.
    await lockHolder
      .query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK])
      .catch(() => undefined);
    await lockHolder.release();
  }
}
