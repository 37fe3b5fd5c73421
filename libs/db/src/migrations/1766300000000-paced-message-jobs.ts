import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A redrive that does not flood a consumer that has just recovered (issue 60): a job may be given
 * a rate, a start gate and a return guard, and says while it runs why it waits. What came back is
 * counted per node in `nodes` (`returned`), beside what was processed.
 */
export class PacedMessageJobs1766300000000 implements MigrationInterface {
  name = 'PacedMessageJobs1766300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE message_job
        ADD COLUMN rate integer CHECK (rate > 0),
        ADD COLUMN wait_for_consumer boolean NOT NULL DEFAULT false,
        ADD COLUMN waiting text,
        ADD COLUMN pause_on_returns jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE message_job DROP COLUMN rate, DROP COLUMN wait_for_consumer, DROP COLUMN waiting, DROP COLUMN pause_on_returns`,
    );
  }
}
