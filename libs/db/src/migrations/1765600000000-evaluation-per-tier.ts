import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One evaluation stamp per tier (issue 59, item 5). With one stamp per cluster, node rules
 * evaluated after every tier-A tick kept the cluster "evaluated" while tier B had stalled, and a
 * tier-B tick that could not read a node stamped it too, with every queue rule unknown: the
 * header read calm while a node was not being read. `error` now says why a tier's last tick
 * evaluated nothing it could trust; `evaluated_at` moves only when it could.
 */
export class EvaluationPerTier1765600000000 implements MigrationInterface {
  name = 'EvaluationPerTier1765600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE alert_evaluation ADD COLUMN scope text NOT NULL DEFAULT 'tier-a'`);
    await db.query(`ALTER TABLE alert_evaluation DROP CONSTRAINT alert_evaluation_pkey`);
    await db.query(
      `INSERT INTO alert_evaluation (cluster_id, scope, evaluated_at, interval_ms, rules, error)
       SELECT cluster_id, 'tier-b', evaluated_at, interval_ms, rules, error FROM alert_evaluation`,
    );
    await db.query(`ALTER TABLE alert_evaluation ALTER COLUMN scope DROP DEFAULT`);
    // Null: the tier's figures have not been known at any tick yet.
    await db.query(`ALTER TABLE alert_evaluation ALTER COLUMN evaluated_at DROP NOT NULL`);
    await db.query(
      `ALTER TABLE alert_evaluation ADD CONSTRAINT alert_evaluation_scope CHECK (scope IN ('tier-a', 'tier-b'))`,
    );
    await db.query(`ALTER TABLE alert_evaluation ADD PRIMARY KEY (cluster_id, scope)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM alert_evaluation WHERE scope = 'tier-b' OR evaluated_at IS NULL`);
    await db.query(`ALTER TABLE alert_evaluation ALTER COLUMN evaluated_at SET NOT NULL`);
    await db.query(`ALTER TABLE alert_evaluation DROP CONSTRAINT alert_evaluation_pkey`);
    await db.query(`ALTER TABLE alert_evaluation DROP CONSTRAINT alert_evaluation_scope`);
    await db.query(`ALTER TABLE alert_evaluation DROP COLUMN scope`);
    await db.query(`ALTER TABLE alert_evaluation ADD PRIMARY KEY (cluster_id)`);
  }
}
