import type { Sql } from './typed-rows';

/** One round trip to PostgreSQL: a readiness probe's proof that the connection answers. */
export async function ping(sql: Sql): Promise<void> {
  await sql.query('SELECT 1');
}
