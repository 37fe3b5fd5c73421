import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Protected queues and addresses (issue 62, item 2): name patterns per cluster on which a
 * destructive action needs an administrator and a reason, and a deletion is refused until the
 * protection is lifted.
 */
export class ProtectedSubjects1766900000000 implements MigrationInterface {
  name = 'ProtectedSubjects1766900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE protected_subject (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cluster_id uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        pattern    text NOT NULL,
        reason     text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT protected_subject_pattern_unique UNIQUE (cluster_id, pattern)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE protected_subject`);
  }
}
