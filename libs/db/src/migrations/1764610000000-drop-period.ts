import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The period each cluster's drops cover, per source: the first and the last reported drop (the
 * reports' own times), so the console can say when events were lost, not only how many.
 * Counters written before this migration take their last update as both ends.
 */
export class DropPeriod1764610000000 implements MigrationInterface {
  name = 'DropPeriod1764610000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE event_drop_counter
        ADD COLUMN first_at timestamptz,
        ADD COLUMN last_at  timestamptz`);
    await db.query(`UPDATE event_drop_counter SET first_at = updated_at, last_at = updated_at`);
    await db.query(`
      ALTER TABLE event_drop_counter
        ALTER COLUMN first_at SET NOT NULL,
        ALTER COLUMN last_at SET NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE event_drop_counter DROP COLUMN first_at, DROP COLUMN last_at`);
  }
}
