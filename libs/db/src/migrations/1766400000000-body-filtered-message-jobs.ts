import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job may select by what is inside the messages (issue 60, ADR-0038): the body filter it was
 * given, and what its scan read and matched before the first batch, are kept with it.
 */
export class BodyFilteredMessageJobs1766400000000 implements MigrationInterface {
  name = 'BodyFilteredMessageJobs1766400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_job ADD COLUMN body_filter jsonb, ADD COLUMN body_scan jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_job DROP COLUMN body_filter, DROP COLUMN body_scan`);
  }
}
