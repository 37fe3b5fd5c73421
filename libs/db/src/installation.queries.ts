import type { DataSource } from 'typeorm';
import { firstRow } from './sql/typed-rows';

/**
 * Which installation of Studio this database is (`studio_installation`, one row made by its
 * migrations): replicas count each other as members only within it (ADR-0016).
 */
export class InstallationQueries {
  constructor(private readonly db: Pick<DataSource, 'query'>) {}

  async id(): Promise<string> {
    const row = await firstRow<{ id: string }>(this.db, 'SELECT id FROM studio_installation');
    if (!row) throw new Error('studio_installation is empty: the database was not migrated');
    return row.id;
  }
}
