import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each queue's rates over its last scrape interval, written by the scraper with the snapshot they
 * are computed from: a counter's increase divided by the seconds between the two observations.
 * NULL when there is no earlier observation, or when a counter went down (the broker restarted
 * and counts afresh): unknown, not zero.
 */
export class QueueRates1764600000000 implements MigrationInterface {
  name = 'QueueRates1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE queue_snapshot
        ADD COLUMN added_per_second        double precision,
        ADD COLUMN acknowledged_per_second double precision,
        ADD COLUMN expired_per_second      double precision,
        ADD COLUMN killed_per_second       double precision`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE queue_snapshot
        DROP COLUMN added_per_second, DROP COLUMN acknowledged_per_second,
        DROP COLUMN expired_per_second, DROP COLUMN killed_per_second`);
  }
}
