import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The history tables, the column that dates a row, and their indexes as they were. */
const TABLES = [
  { table: 'metric_sample', age: 'sampled_at', series: '(cluster_id, queue, sampled_at)' },
  { table: 'queue_tick', age: 'ticked_at', series: '(cluster_id, node_id, ticked_at)' },
  { table: 'node_sample', age: 'sampled_at', series: '(cluster_id, sampled_at)' },
  { table: 'address_sample', age: 'sampled_at', series: '(cluster_id, address, sampled_at)' },
];
const HOUR_MS = 3_600_000;
/** The hours given a partition here: those of the last two days' history, and six ahead. */
const HOURS_BACK = 48;
const HOURS_AHEAD = 6;

/**
 * The history partitioned by the hour (issue 32, ADR-0021): retention drops an hour's partition
 * instead of deleting its rows, and the scraper makes the hours' partitions ahead of the clock. A
 * default partition holds what no hour's partition was there for (older history than two days,
 * rows written before their hour's partition was made), deleted by retention as before.
 */
export class HourlyHistory1765200000000 implements MigrationInterface {
  name = 'HourlyHistory1765200000000';

  async up(db: QueryRunner): Promise<void> {
    const now = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    for (const { table, age, series } of TABLES) {
      const [{ first }] = (await db.query(`SELECT min(${age}) AS first FROM ${table}`)) as {
        first: Date | null;
      }[];
      await db.query(`DROP INDEX ${table}_series, ${table}_age`);
      await db.query(`ALTER TABLE ${table} RENAME TO ${table}_unpartitioned`);
      await db.query(
        `CREATE TABLE ${table} (LIKE ${table}_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE (${age})`,
      );
      await db.query(`CREATE TABLE ${table}_default PARTITION OF ${table} DEFAULT WITH (fillfactor = 100)`);
      const start = Math.max(
        first ? Math.floor(first.getTime() / HOUR_MS) * HOUR_MS : now,
        now - HOURS_BACK * HOUR_MS,
      );
      for (let hour = start; hour < now + HOURS_AHEAD * HOUR_MS; hour += HOUR_MS) {
        const [from, to] = [new Date(hour).toISOString(), new Date(hour + HOUR_MS).toISOString()];
        await db.query(
          `CREATE TABLE ${table}_p${from.slice(0, 13).replace(/\D/g, '')} PARTITION OF ${table}
             FOR VALUES FROM ('${from}') TO ('${to}') WITH (fillfactor = 100)`,
        );
      }
      await db.query(`INSERT INTO ${table} SELECT * FROM ${table}_unpartitioned`);
      await db.query(`DROP TABLE ${table}_unpartitioned`);
      await db.query(`CREATE INDEX ${table}_series ON ${table} ${series}`);
      await db.query(`CREATE INDEX ${table}_age ON ${table} USING brin (${age})`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const { table, age, series } of TABLES) {
      await db.query(`ALTER TABLE ${table} RENAME TO ${table}_partitioned`);
      await db.query(
        `CREATE TABLE ${table} (LIKE ${table}_partitioned INCLUDING DEFAULTS) WITH (fillfactor = 100)`,
      );
      await db.query(`INSERT INTO ${table} SELECT * FROM ${table}_partitioned`);
      await db.query(`DROP TABLE ${table}_partitioned`);
      await db.query(`CREATE INDEX ${table}_series ON ${table} ${series}`);
      await db.query(`CREATE INDEX ${table}_age ON ${table} USING brin (${age})`);
    }
  }
}
