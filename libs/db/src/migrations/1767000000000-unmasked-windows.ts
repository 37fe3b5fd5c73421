import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Break-glass access to masked bodies (issue 62, item 3): one person's window on one queue's
 * unmasked message bodies, for a limited time, with a reason; every message seen in it is audited.
 */
export class UnmaskedWindows1767000000000 implements MigrationInterface {
  name = 'UnmaskedWindows1767000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE unmasked_window (
        id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cluster_id     uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        queue          text NOT NULL,
        user_id        text NOT NULL,
        user_name      text NOT NULL,
        reason         text NOT NULL,
        ticket         text,
        starts_at      timestamptz NOT NULL DEFAULT now(),
        ends_at        timestamptz NOT NULL,
        ended_early_at timestamptz
      )`);
    await db.query(`CREATE INDEX unmasked_window_open ON unmasked_window (cluster_id, queue, ends_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE unmasked_window`);
  }
}
