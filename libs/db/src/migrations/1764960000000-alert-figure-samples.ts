import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The figures the alert rules read, kept over time like the others so the console can chart them:
 * each node's journal disk usage and address memory against their limits (node_sample, whose
 * connection count may now be unknown on its own), and each queue's messages in delivery and the
 * send time of its oldest message (metric_sample). Null where the broker did not say, and in the
 * rows written before this migration: unknown, never 0.
 */
export class AlertFigureSamples1764960000000 implements MigrationInterface {
  name = 'AlertFigureSamples1764960000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE node_sample
        ALTER COLUMN connection_count DROP NOT NULL,
        ADD COLUMN disk_usage         real,
        ADD COLUMN disk_limit         real,
        ADD COLUMN memory_bytes       bigint,
        ADD COLUMN memory_limit_bytes bigint`);
    await db.query(`
      ALTER TABLE metric_sample
        ADD COLUMN delivering_count integer,
        ADD COLUMN first_message_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE metric_sample DROP COLUMN delivering_count, DROP COLUMN first_message_at`);
    await db.query(`DELETE FROM node_sample WHERE connection_count IS NULL`);
    await db.query(`
      ALTER TABLE node_sample
        DROP COLUMN disk_usage, DROP COLUMN disk_limit, DROP COLUMN memory_bytes, DROP COLUMN memory_limit_bytes,
        ALTER COLUMN connection_count SET NOT NULL`);
  }
}
