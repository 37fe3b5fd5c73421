import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DataSourceOptions {
  url: string;
  /** Pool size; the migration runner holds one connection for its lock and needs another. */
  poolSize?: number;
  applicationName?: string;
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
    extra: { max: poolSize, connectionTimeoutMillis: 5000 },
  });
}
