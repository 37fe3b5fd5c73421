import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A redrive that does not flood a consumer that has just recovered (issue 60): a job may be given
 * a rate and a start gate, and says while it runs why it waits.
 */
export class PacedMessageJobs1766300000000 implements MigrationInterface {
  name = 'PacedMessageJobs1766300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE message_job
        ADD COLUMN rate integer CHECK (rate > 0),
        ADD COLUMN wait_for_consumer boolean NOT NULL DEFAULT false,
        ADD COLUMN waiting text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE message_job DROP COLUMN rate, DROP COLUMN wait_for_consumer, DROP COLUMN waiting`,
    );
  }
}
