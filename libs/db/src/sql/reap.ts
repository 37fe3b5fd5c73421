import { changeOf, type Sql } from './typed-rows';

/** A table kept for a retention period: its name and the column that says how old a row is. */
export interface ReapedTable {
  /** One of our tables, or a partition of one (an hour's history, ADR-0021). */
  table: string;
  age: string;
  /** Only the rows matching this condition (of constants only) are kept for this period. */
  scope?: string;
  /** Delete oldest first by this column (a keyset), or in any order (by ctid) when absent. */
  orderBy?: string;
}

/**
 * Deletes the rows older than the cut-off in bounded batches, so no statement holds its locks for
 * long and a reaper never stalls the writers; returns how many went. Not for a partitioned table
 * (refused): a row's ctid is its partition's, and the same ctid is in every partition.
 */
export async function reapOlderThan(
  sql: Sql,
  { table, age, orderBy, scope }: ReapedTable,
  olderThan: Date,
  batchSize: number,
): Promise<number> {
  const [key, order] = orderBy ? [orderBy, `ORDER BY ${orderBy}`] : ['ctid', ''];
  const [{ kind }] = (await sql.query(`SELECT relkind AS kind FROM pg_class WHERE oid = $1::regclass`, [
    table,
  ])) as {
    kind: string;
  }[];
  if (kind === 'p') throw new Error(`${table} is partitioned: reap its partitions (reapHourlyHistory)`);
  let total = 0;
  for (;;) {
    const { count } = await changeOf(
      sql,
      `DELETE FROM ${table} WHERE ${key} = ANY (ARRAY(
         SELECT ${key} FROM ${table} WHERE ${age} < $1 ${scope ? `AND ${scope}` : ''} ${order} LIMIT $2))`,
      [olderThan, batchSize],
    );
    total += count;
    if (!count || count < batchSize) return total;
  }
}
