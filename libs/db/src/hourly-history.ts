import type { DataSource } from 'typeorm';
import { reapOlderThan } from './reap';
import { rowsOf, type Sql } from './sql';

/**
 * The history tables partitioned by the hour (ADR-0021), each with the column that says when its
 * row was written (retention drops an hour's partition whole instead of deleting its rows), and
 * the columns of its series index, the order a closed hour is rewritten in (ADR-0023).
 */
export const HOURLY_HISTORY = {
  metric_sample: { table: 'metric_sample', age: 'sampled_at', series: 'cluster_id, queue, sampled_at' },
  queue_tick: { table: 'queue_tick', age: 'ticked_at', series: 'cluster_id, node_id, ticked_at' },
  node_sample: { table: 'node_sample', age: 'sampled_at', series: 'cluster_id, sampled_at' },
  address_sample: { table: 'address_sample', age: 'sampled_at', series: 'cluster_id, address, sampled_at' },
} as const;
export type HourlyHistory = (typeof HOURLY_HISTORY)[keyof typeof HOURLY_HISTORY];

/**
 * How far ahead of the clock the hours' partitions are made. An hour not made yet loses nothing:
 * its rows go to the default partition, and move into the hour's when it is made.
 */
export const HOURLY_PARTITIONS_AHEAD_MS = 6 * 3_600_000;

const HOUR_MS = 3_600_000;
/**
 * Waited for at most, to make an hour's partition (its attaching locks the default partition, not
 * the table's readers and writers), before the next run tries again.
 */
const LOCK_TIMEOUT = '5s';
/**
 * The same to drop one: that locks the whole table, and every reader and writer queues behind the
 * drop while it waits for the queries already running. An hour not dropped now is the next run's.
 */
const DROP_LOCK_TIMEOUT = '1s';
/** PostgreSQL's lock_not_available and deadlock_detected: a lock not had, for the next run to try again. */
const LOCK_LOST = new Set(['55P03', '40P01']);

/** The start of the UTC hour `at` falls in. */
export const hourOf = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/** An hour's partition bounds, as the ISO instants its DDL is written with (DDL takes no parameters). */
const hourBounds = (hour: Date): [string, string] => [
  hour.toISOString(),
  new Date(hour.getTime() + HOUR_MS).toISOString(),
];

/** An hour's partition: `metric_sample_p2026120309` holds the rows of 09:00 to 10:00 UTC that day. */
export function partitionName(table: string, hour: Date): string {
  return `${table}_p${hour.toISOString().slice(0, 13).replace(/\D/g, '')}`;
}

/** The hour a partition of `table` holds, from its name; null for the default partition (or another table). */
function hourOfPartition(table: string, name: string): Date | null {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})(\\d{2})$`).exec(name);
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:00:00Z`) : null;
}

/** Said of an hour's partition, as its table's comment, once its rows are in series order. */
const SORTED = 'rows in series order';

/** The default partition: what no hour's partition was there for (written before it was made, or dated far off). */
const defaultPartition = (table: string): string => `${table}_default`;

interface HourPartition {
  name: string;
  hour: Date;
  /** Its rows rewritten in series order (ADR-0023). */
  sorted: boolean;
}

/** The hours a table's partitions hold, oldest first. */
async function partitionedHours(sql: Sql, table: string): Promise<HourPartition[]> {
  const rows = await rowsOf<{ name: string; comment: string | null }>(
    sql,
    `SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass`,
    [table],
  );
  return rows
    .map((r) => ({ name: r.name, hour: hourOfPartition(table, r.name), sorted: r.comment === SORTED }))
    .filter((p): p is HourPartition => p.hour !== null)
    .sort((a, b) => a.hour.getTime() - b.hour.getTime());
}

/**
 * Makes one hour's partition of `table`, in the caller's transaction: what the default partition
 * holds for that hour moves into it first, so that attaching it does not fail (rows written while
 * no partition was there). DDL takes no parameters: the bounds are ISO instants of our own making.
 */
async function makeHourPartition(sql: Sql, { table, age }: HourlyHistory, hour: Date): Promise<void> {
  const name = partitionName(table, hour);
  const [from, to] = hourBounds(hour);
  await sql.query(`CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS) WITH (fillfactor = 100)`);
  await sql.query(
    `WITH moved AS (DELETE FROM ${defaultPartition(table)} WHERE ${age} >= $1 AND ${age} < $2 RETURNING *)
     INSERT INTO ${name} SELECT * FROM moved`,
    [from, to],
  );
  await sql.query(`ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
}

/**
 * Makes sure every hour from `from` up to `until` has its partition, in one transaction per table
 * under an advisory lock (replicas of the owning service do this at once); returns how many were
 * made. A lock it cannot get within LOCK_TIMEOUT fails the run: the partitions ahead leave time.
 */
export async function ensureHourlyPartitions(
  db: Pick<DataSource, 'transaction'>,
  history: HourlyHistory,
  from: Date,
  until: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
      `artemis-studio:partitions:${history.table}`,
    ]);
    const made = new Set((await partitionedHours(tx, history.table)).map((p) => p.hour.getTime()));
    let count = 0;
    for (let hour = hourOf(from).getTime(); hour < until.getTime(); hour += HOUR_MS) {
      if (made.has(hour)) continue;
      await makeHourPartition(tx, history, new Date(hour));
      count++;
    }
    return count;
  });
}

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
  { table, age, series }: HourlyHistory,
  partition: HourPartition,
): Promise<boolean> {
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
    const [from, to] = hourBounds(partition.hour);
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
  const closed = (await partitionedHours(db, history.table)).filter(
    (p) =>
      !p.sorted &&
      p.hour.getTime() + HOUR_MS > keepFrom.getTime() &&
      p.hour.getTime() + HOUR_MS + SORT_AFTER_MS <= now.getTime(),
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

/**
 * What a retention run removed: the rows deleted one by one, and the hours' partitions dropped
 * whole (their rows are not counted: that would read every one of them).
 */
export interface Reaped {
  rows: number;
  partitions: number;
}

/**
 * Removes a table's rows older than the cut-off: each hour's partition that ended by then is
 * dropped whole, and the older rows of the default partition are deleted in bounded batches. Says
 * how many rows were deleted, and how many partitions dropped.
 *
 * The hour the cut-off falls in is kept whole until it has all passed, so a row outlives the
 * retention by up to an hour. Deleting its older rows instead, at every hourly run, would delete
 * a share of every hour's rows one by one before their hour was dropped (as large as the run's
 * minute in the hour), which is what the partitions are there to spare.
 */
export async function reapHourlyHistory(
  db: Pick<DataSource, 'transaction' | 'query'>,
  history: HourlyHistory,
  olderThan: Date,
  batchSize: number,
): Promise<Reaped> {
  const hours = await partitionedHours(db, history.table);
  const ended = hours.filter((p) => p.hour.getTime() + HOUR_MS <= olderThan.getTime());
  for (const partition of ended)
    await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
      // IF EXISTS: every scraper replica keeps the history, and another may have dropped it first.
      await tx.query(`DROP TABLE IF EXISTS ${partition.name}`);
    });
  const rows = await reapOlderThan(
    db,
    { table: defaultPartition(history.table), age: history.age },
    olderThan,
    batchSize,
  );
  return { rows, partitions: ended.length };
}
