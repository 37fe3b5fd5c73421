import type { DataSource } from 'typeorm';
import { reapOlderThan } from './reap';
import { rowsOf, type Sql } from './typed-rows';

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

export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/**
 * Waited for at most, to make a partition (its attaching locks the default partition, not the
 * table's readers and writers), before the next run tries again.
 */
const LOCK_TIMEOUT = '5s';
/**
 * The same to drop one: that locks the whole table, and every reader and writer queues behind the
 * drop while it waits for the queries already running. A period not dropped now is the next run's.
 */
export const DROP_LOCK_TIMEOUT = '1s';
/** PostgreSQL's lock_not_available and deadlock_detected: a lock not had, for the next run to try again. */
export const LOCK_LOST = new Set(['55P03', '40P01']);

/**
 * A table partitioned by periods of time: the hours of the history (ADR-0021) or the days of the
 * broker events (ADR-0025). Its partitions are named for their period's start in UTC
 * (`metric_sample_p2026120309`, `broker_event_p20261203`).
 */
export interface TimePartitioned {
  table: string;
  /** The partition key. */
  key: string;
  /** One partition's span: an hour or a day. */
  periodMs: number;
  /** The key's lowest value at an instant, as its DDL writes it (DDL takes no parameters). */
  keyAt(at: Date): string;
  /** The column a row of the default partition is aged by, for retention. */
  age: string;
}

/** The start of the period `at` falls in. */
const periodOf = (t: Pick<TimePartitioned, 'periodMs'>, at: Date): Date =>
  new Date(Math.floor(at.getTime() / t.periodMs) * t.periodMs);

/** The start of the UTC hour `at` falls in. */
export const hourOf = (at: Date): Date => periodOf({ periodMs: HOUR_MS }, at);

/** The digits of a partition's name: YYYYMMDDHH for an hour, YYYYMMDD for a day. */
const nameDigits = (periodMs: number): number => (periodMs === DAY_MS ? 8 : 10);

function periodPartitionName(t: Pick<TimePartitioned, 'table' | 'periodMs'>, start: Date): string {
  return `${t.table}_p${start.toISOString().replace(/\D/g, '').slice(0, nameDigits(t.periodMs))}`;
}

/** An hour's partition: `metric_sample_p2026120309` holds the rows of 09:00 to 10:00 UTC that day. */
export function partitionName(table: string, hour: Date): string {
  return periodPartitionName({ table, periodMs: HOUR_MS }, hour);
}

/** The period a partition of `table` holds, from its name; null for the default partition (or another table). */
function periodOfPartition(t: Pick<TimePartitioned, 'table' | 'periodMs'>, name: string): Date | null {
  const digits = new RegExp(`^${t.table}_p(\\d+)$`).exec(name)?.[1];
  if (digits?.length !== nameDigits(t.periodMs)) return null;
  const at = (from: number, to: number) => digits.slice(from, to) || '00';
  return new Date(`${at(0, 4)}-${at(4, 6)}-${at(6, 8)}T${at(8, 10)}:00:00Z`);
}

/** A period's partition bounds, as its DDL writes them. */
export const boundsOf = (t: TimePartitioned, start: Date): [string, string] => [
  t.keyAt(start),
  t.keyAt(new Date(start.getTime() + t.periodMs)),
];

/** Said of an hour's partition, as its table's comment, once its rows are in series order. */
export const SORTED = 'rows in series order';

/** The default partition: what no period's partition was there for (written before it was made, or dated far off). */
const defaultPartition = (table: string): string => `${table}_default`;

export interface PeriodPartition {
  name: string;
  start: Date;
  /** Its rows rewritten in series order (ADR-0023). */
  sorted: boolean;
}

/** The periods a table's partitions hold, oldest first. */
export async function partitionedPeriods(sql: Sql, t: TimePartitioned): Promise<PeriodPartition[]> {
  const rows = await rowsOf<{ name: string; comment: string | null }>(
    sql,
    `SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass`,
    [t.table],
  );
  return rows
    .map((r) => ({ name: r.name, start: periodOfPartition(t, r.name), sorted: r.comment === SORTED }))
    .filter((p): p is PeriodPartition => p.start !== null)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}

/**
 * Makes one period's partition of a table, in the caller's transaction: what the default
 * partition holds for that period moves into it first, so that attaching it does not fail (rows
 * written while no partition was there).
 */
async function makePartition(sql: Sql, t: TimePartitioned, start: Date): Promise<void> {
  const name = periodPartitionName(t, start);
  const [from, to] = boundsOf(t, start);
  await sql.query(`CREATE TABLE ${name} (LIKE ${t.table} INCLUDING DEFAULTS) WITH (fillfactor = 100)`);
  await sql.query(
    `WITH moved AS (DELETE FROM ${defaultPartition(t.table)} WHERE ${t.key} >= $1 AND ${t.key} < $2 RETURNING *)
     INSERT INTO ${name} SELECT * FROM moved`,
    [from, to],
  );
  await sql.query(`ALTER TABLE ${t.table} ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
}

/**
 * Makes sure every period from `from` up to `until` has its partition, in one transaction under
 * an advisory lock (replicas of the owning service do this at once); returns how many were made.
 * A lock it cannot get within LOCK_TIMEOUT fails the run: the partitions ahead leave time.
 */
export async function ensurePartitions(
  db: Pick<DataSource, 'transaction'>,
  t: TimePartitioned,
  from: Date,
  until: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`artemis-studio:partitions:${t.table}`]);
    const made = new Set((await partitionedPeriods(tx, t)).map((p) => p.start.getTime()));
    let count = 0;
    for (let start = periodOf(t, from).getTime(); start < until.getTime(); start += t.periodMs) {
      if (made.has(start)) continue;
      await makePartition(tx, t, new Date(start));
      count++;
    }
    return count;
  });
}

/** One of the hourly history tables, as a table partitioned by the hour on its time column. */
export const byHour = ({ table, age }: HourlyHistory): TimePartitioned => ({
  table,
  key: age,
  periodMs: HOUR_MS,
  keyAt: (at) => at.toISOString(),
  age,
});

/** The hours' partitions from `from` up to `until` (ensurePartitions). */
export const ensureHourlyPartitions = (
  db: Pick<DataSource, 'transaction'>,
  history: HourlyHistory,
  from: Date,
  until: Date,
): Promise<number> => ensurePartitions(db, byHour(history), from, until);

/**
 * What a retention run removed: the rows deleted one by one, and the partitions (hours or days)
 * dropped whole (their rows are not counted: that would read every one of them).
 */
export interface Reaped {
  rows: number;
  partitions: number;
}

/**
 * Removes a table's rows older than the cut-off: each period's partition that ended by then is
 * dropped whole, and the older rows of the default partition are deleted in bounded batches. Says
 * how many rows were deleted, and how many partitions dropped.
 *
 * The period the cut-off falls in is kept whole until it has all passed, so a row outlives the
 * retention by up to a period. Deleting its older rows instead, at every hourly run, would delete
 * a share of every period's rows one by one before it was dropped (as large as the time since
 * the period began), which is what the partitions are there to spare.
 */
export async function reapPartitions(
  db: Pick<DataSource, 'transaction' | 'query'>,
  t: TimePartitioned,
  olderThan: Date,
  batchSize: number,
): Promise<Reaped> {
  const periods = await partitionedPeriods(db, t);
  const ended = periods.filter((p) => p.start.getTime() + t.periodMs <= olderThan.getTime());
  let dropped = 0;
  for (const partition of ended)
    try {
      await db.transaction(async (tx) => {
        await tx.query(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
        // IF EXISTS: every replica of the owning service reaps, and another may have dropped it first.
        await tx.query(`DROP TABLE IF EXISTS ${partition.name}`);
      });
      dropped++;
    } catch (e) {
      // Its lock not had in time (a long read): the next run's, and the default partition's rows still go.
      if (!LOCK_LOST.has((e as { driverError?: { code?: string } }).driverError?.code ?? '')) throw e;
    }
  const rows = await reapOlderThan(
    db,
    { table: defaultPartition(t.table), age: t.age },
    olderThan,
    batchSize,
  );
  return { rows, partitions: dropped };
}

/** The hours' partitions that ended by the cut-off, and the default partition's older rows (reapPartitions). */
export const reapHourlyHistory = (
  db: Pick<DataSource, 'transaction' | 'query'>,
  history: HourlyHistory,
  olderThan: Date,
  batchSize: number,
): Promise<Reaped> => reapPartitions(db, byHour(history), olderThan, batchSize);

/**
 * The lowest event id of an instant. Every id leads with a time in its first 48 bits (UUIDv7's
 * layout): the broker's timestamp of the notification, or, for one without, when the notifier made
 * the id (services/notifier, event-id.ts).
 */
export function eventIdAt(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/**
 * `broker_event`, partitioned by the day of its event id (ADR-0025): the id is what keeps a
 * notification stored once (a unique index of a partitioned table must hold its partition key),
 * and it dates the event by the broker's clock. The default partition's rows age by when they were
 * received.
 */
export const BROKER_EVENT_DAYS: TimePartitioned = {
  table: 'broker_event',
  key: 'event_id',
  periodMs: DAY_MS,
  keyAt: eventIdAt,
  age: 'received_at',
};

/** How far ahead of the clock the days' partitions of `broker_event` are made. */
export const EVENT_PARTITIONS_AHEAD_MS = 2 * DAY_MS;
