import type { DataSource } from 'typeorm';
import { reapOlderThan } from './reap';
import { rowsOf, type Sql } from './sql';

/**
 * The history tables partitioned by the hour (ADR-0021), each with the column that says when its
 * row was written: retention drops an hour's partition whole instead of deleting its rows.
 */
export const HOURLY_HISTORY = {
  metric_sample: { table: 'metric_sample', age: 'sampled_at' },
  queue_tick: { table: 'queue_tick', age: 'ticked_at' },
  node_sample: { table: 'node_sample', age: 'sampled_at' },
  address_sample: { table: 'address_sample', age: 'sampled_at' },
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

/** The start of the UTC hour `at` falls in. */
export const hourOf = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/** An hour's partition: `metric_sample_p2026120309` holds the rows of 09:00 to 10:00 UTC that day. */
export function partitionName(table: string, hour: Date): string {
  return `${table}_p${hour.toISOString().slice(0, 13).replace(/\D/g, '')}`;
}

/** The hour a partition of `table` holds, from its name; null for the default partition (or another table). */
function hourOfPartition(table: string, name: string): Date | null {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})(\\d{2})$`).exec(name);
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:00:00Z`) : null;
}

/** The default partition: what no hour's partition was there for (written before it was made, or dated far off). */
const defaultPartition = (table: string): string => `${table}_default`;

/** The hours a table's partitions hold, oldest first. */
async function partitionedHours(sql: Sql, table: string): Promise<{ name: string; hour: Date }[]> {
  const rows = await rowsOf<{ name: string }>(
    sql,
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass`,
    [table],
  );
  return rows
    .map((r) => ({ name: r.name, hour: hourOfPartition(table, r.name) }))
    .filter((p): p is { name: string; hour: Date } => p.hour !== null)
    .sort((a, b) => a.hour.getTime() - b.hour.getTime());
}

/**
 * Makes one hour's partition of `table`, in the caller's transaction: what the default partition
 * holds for that hour moves into it first, so that attaching it does not fail (rows written while
 * no partition was there). DDL takes no parameters: the bounds are ISO instants of our own making.
 */
async function makeHourPartition(sql: Sql, { table, age }: HourlyHistory, hour: Date): Promise<void> {
  const name = partitionName(table, hour);
  const [from, to] = [hour.toISOString(), new Date(hour.getTime() + HOUR_MS).toISOString()];
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
 * What a retention run removed: the rows deleted one by one, and the hours' partitions dropped
 * whole (their rows are not counted: that would read every one of them).
 */
export interface Reaped {
  rows: number;
  partitions: number;
}

/**
 * Removes a table's rows older than the cut-off: each hour's partition that ended by then is
 * dropped whole, and the rows older than it in the hour it falls in and in the default partition
 * are deleted in bounded batches. Says how many rows were deleted, and how many partitions dropped.
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
  let rows = 0;
  const straddling = hours.filter((p) => p.hour < olderThan && !ended.includes(p)).map((p) => p.name);
  for (const table of [...straddling, defaultPartition(history.table)])
    rows += await reapOlderThan(db, { table, age: history.age }, olderThan, batchSize);
  return { rows, partitions: ended.length };
}
