import type { DataSource, EntityManager } from 'typeorm';
import type { StatementPool } from '../data-source';

/**
 * What runs a raw statement: the data source, or a transaction's manager, so a change commits (or
 * rolls back) with whatever else that transaction writes (an audit row, say).
 */
export type Sql = Pick<DataSource | EntityManager, 'query'>;

/**
 * The rows a SELECT (or an INSERT … RETURNING) gives, typed as the columns it names: the one way
 * raw SQL is read here. Each caller declares its row type once and maps it with a plain function.
 */
export async function rowsOf<Row>(sql: Sql, text: string, params: readonly unknown[] = []): Promise<Row[]> {
  return (await sql.query(text, [...params])) as Row[];
}

/** The first row, or null when there is none. */
export async function firstRow<Row>(
  sql: Sql,
  text: string,
  params: readonly unknown[] = [],
): Promise<Row | null> {
  return (await rowsOf<Row>(sql, text, params))[0] ?? null;
}

/** A statement each connection of a statement pool prepares once, under its name, and keeps. */
export interface PreparedStatement {
  name: string;
  text: string;
}

/**
 * The rows of a prepared statement, run on a statement pool (`createStatementPool`): planned once
 * per connection, for every value. At a year's 369 days of broker events, a stream's reconnect
 * went from over 200 ms, most of it planning, to about 30 (docs/benchmarks.md, gateway-replay).
 */
export async function preparedRowsOf<Row>(
  pool: StatementPool,
  statement: PreparedStatement,
  params: readonly unknown[],
): Promise<Row[]> {
  return (await pool.query({ name: statement.name, text: statement.text, values: [...params] }))
    .rows as Row[];
}

/**
 * An UPDATE or DELETE (with or without RETURNING): how many rows it touched, and those it returned.
 * Through TypeORM, PostgreSQL's answer to these is `[rows, count]`, not rows alone.
 */
export async function changeOf<Row = never>(
  sql: Sql,
  text: string,
  params: readonly unknown[] = [],
): Promise<{ count: number; rows: Row[] }> {
  const [rows, count] = (await sql.query(text, [...params])) as [Row[], number];
  return { count: count ?? 0, rows: Array.isArray(rows) ? rows : [] };
}

/** A nullable timestamp column as the API gives it: an ISO string, or null. */
export const isoOrNull = (date: Date | null): string | null => date?.toISOString() ?? null;

/**
 * A WHERE clause built from optional filters: `add('queue = ?', value)` adds the condition with its
 * value as the next numbered parameter, or nothing when the value is absent.
 */
export class Filters {
  private readonly conditions: string[] = [];
  private readonly values: unknown[] = [];

  add(condition: string, value: unknown): this {
    if (value === undefined || value === null || value === '') return this;
    this.conditions.push(condition.replace('?', this.param(value)));
    return this;
  }

  /** Adds a value and returns its placeholder (`$3`), for a statement's other parts. */
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  get params(): readonly unknown[] {
    return this.values;
  }

  get where(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

/**
 * One newest-first page of an append-only table keyed by `seq`: the rows below the cursor that pass
 * the filters, and the cursor of the next page (null on the last). One row more than the page is
 * read to know whether another follows; the table's `(…, seq)` index serves it.
 */
export async function pageBefore<Row extends { seq: string | number }>(
  sql: Sql,
  table: 'broker_event' | 'audit_event',
  filters: Filters,
  page: { before?: number; limit: number },
): Promise<{ rows: Row[]; nextBefore: number | null }> {
  filters.add('seq < ?', page.before);
  const limit = filters.param(page.limit + 1);
  const rows = await rowsOf<Row>(
    sql,
    `SELECT * FROM ${table} ${filters.where} ORDER BY seq DESC LIMIT ${limit}`,
    filters.params,
  );
  const kept = rows.slice(0, page.limit);
  return { rows: kept, nextBefore: rows.length > page.limit ? Number(kept[kept.length - 1].seq) : null };
}

/** The first row an UPDATE or DELETE … RETURNING gave, or null when it touched none. */
export async function firstChanged<Row>(
  sql: Sql,
  text: string,
  params: readonly unknown[] = [],
): Promise<Row | null> {
  return (await changeOf<Row>(sql, text, params)).rows[0] ?? null;
}
