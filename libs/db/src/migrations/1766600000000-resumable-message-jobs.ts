import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A paused job resumes from where it stopped (issue 60): its request is kept as it was asked, so
 * that the owner plans it again over what is left, and how often it was resumed is counted.
 * Jobs recorded before have no request: they cannot be resumed, and say so.
 */
export class ResumableMessageJobs1766600000000 implements MigrationInterface {
  name = 'ResumableMessageJobs1766600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE message_job
        ADD COLUMN request jsonb,
        ADD COLUMN resumes integer NOT NULL DEFAULT 0`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_job DROP COLUMN request, DROP COLUMN resumes`);
  }
}
