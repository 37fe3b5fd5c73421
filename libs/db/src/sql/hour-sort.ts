import type { DataSource } from 'typeorm';
import {
  boundsOf,
  byHour,
  DROP_LOCK_TIMEOUT,
  HOUR_MS,
  LOCK_LOST,
  partitionedPeriods,
  SORTED,
  type HourlyHistory,
  type PeriodPartition,
} from './time-partitions';
import { rowsOf, type Sql } from './typed-rows';

/**
 * How long an hour is left after its end before it is sorted: a tick running when the hour ended
 * still writes into it. One that comes later only waits for the sort (see sortHourPartition).
 */
export const SORT_AFTER_MS = 10 * 60_000;

/**
 * Rewrites one closed hour's partition with its rows in the order of the series index, in one
 * transaction, and says whether it did (false: another replica had, or it was dropped meanwhile).
 * Written in time order, a series' rows are spread over every page of the hour: a queue sampled at
 * every tick has a page of its own for each sample, and a week of it reads 40,000 pages. Sorted,
 * its hour is one or two.
 *
 * Readers are not held up while the rows are copied: the hour's writers are (none come after its
 * end but a late tick), and everything only while the copy takes the old partition's place (a
 * detach and an attach under the table's lock, as when an hour is dropped).
 */
async function sortHourPartition(
  db: Pick<DataSource, 'transaction'>,
  history: HourlyHistory,
  partition: PeriodPartition,
): Promise<boolean> {
  const { table, age, series } = history;
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`artemis-studio:partitions:${table}`]);
    const [{ present, sorted }] = await rowsOf<{ present: boolean; sorted: boolean }>(
      tx,
      `SELECT to_regclass($1) IS NOT NULL AS present,
              obj_description(to_regclass($1), 'pg_class') IS NOT DISTINCT FROM $2 AS sorted`,
      [partition.name, SORTED],
    );
    if (!present || sorted) return false;
    const { name } = partition;
    const copy = `${name}_sorting`;
    const [from, to] = boundsOf(byHour(history), partition.start);
    // No row may be written into the hour between the copy and the swap: it would be lost.
    await tx.query(`LOCK TABLE ${name} IN SHARE MODE`);
    await tx.query(`CREATE TABLE ${copy} (LIKE ${table} INCLUDING DEFAULTS) WITH (fillfactor = 100)`);
    await tx.query(`INSERT INTO ${copy} SELECT * FROM ${name} ORDER BY ${series}`);
    // Made before the swap, so that attaching adopts them instead of building them under the lock.
    for (const index of await partitionedIndexes(tx, table))
      await tx.query(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ON ${copy} ${index.definition}`);
    // Proves the rows are the hour's, so that attaching does not read them again.
    await tx.query(
      `ALTER TABLE ${copy} ADD CONSTRAINT ${copy}_hour CHECK (${age} >= '${from}' AND ${age} < '${to}')`,
    );
    await tx.query(`ALTER TABLE ${table} DETACH PARTITION ${name}`);
    await tx.query(`ALTER TABLE ${table} ATTACH PARTITION ${copy} FOR VALUES FROM ('${from}') TO ('${to}')`);
    await tx.query(`ALTER TABLE ${copy} DROP CONSTRAINT ${copy}_hour`);
    await tx.query(`DROP TABLE ${name}`);
    await tx.query(`ALTER TABLE ${copy} RENAME TO ${name}`);
    await tx.query(`COMMENT ON TABLE ${name} IS '${SORTED}'`);
    return true;
  });
}

/** A partitioned table's own indexes, as what follows `ON <table>` in their CREATE INDEX. */
async function partitionedIndexes(
  sql: Sql,
  table: string,
): Promise<{ unique: boolean; definition: string }[]> {
  const rows = await rowsOf<{ unique: boolean; definition: string }>(
    sql,
    `SELECT i.indisunique AS unique, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i WHERE i.indrelid = $1::regclass ORDER BY i.indexrelid`,
    [table],
  );
  return rows.map((r) => ({ unique: r.unique, definition: r.definition.replace(/^.* ON ONLY \S+ /, '') }));
}

/**
 * Sorts every hour of `history` that ended SORT_AFTER_MS before `now` and is not sorted yet (and
 * is not past the retention cut-off `keepFrom`: it is about to be dropped), oldest first; returns
 * how many it sorted. Each hour is its own transaction: one whose lock was not had in time is the
 * next run's.
 */
export async function sortClosedHours(
  db: Pick<DataSource, 'transaction' | 'query'>,
  history: HourlyHistory,
  now: Date,
  keepFrom: Date,
): Promise<number> {
  const closed = (await partitionedPeriods(db, byHour(history))).filter(
    (p) =>
      !p.sorted &&
      p.start.getTime() + HOUR_MS > keepFrom.getTime() &&
      p.start.getTime() + HOUR_MS + SORT_AFTER_MS <= now.getTime(),
  );
  let sorted = 0;
  for (const partition of closed)
    try {
      if (await sortHourPartition(db, history, partition)) sorted++;
    } catch (e) {
      // Its lock not had in time (a long read of the table, a late writer): the next run's. A
      // deadlock with a late writer ends the same way, the writer's tick kept.
      if (!LOCK_LOST.has((e as { driverError?: { code?: string } }).driverError?.code ?? '')) throw e;
    }
  return sorted;
}
