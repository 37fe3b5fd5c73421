import { createDataSource } from '../data-source';
import { migrate } from '../sql/migrate';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL. */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/artemis_studio';
  const dataSource = await createDataSource({
    url,
    poolSize: 2,
    applicationName: 'artemis-studio-migrate',
  }).initialize();
  try {
    const applied = await migrate(dataSource);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((err: unknown) => {
  console.error('migration failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
