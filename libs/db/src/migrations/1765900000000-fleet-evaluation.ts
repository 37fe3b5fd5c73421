import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rule about the cluster's owner itself (`studio-scraper-unowned`) is evaluated by every scraper
 * replica rather than by the owner, which may be the one missing: its stamp is a scope of its own.
 */
export class FleetEvaluation1765900000000 implements MigrationInterface {
  name = 'FleetEvaluation1765900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE alert_evaluation DROP CONSTRAINT alert_evaluation_scope`);
    await db.query(
      `ALTER TABLE alert_evaluation ADD CONSTRAINT alert_evaluation_scope CHECK (scope IN ('tier-a', 'tier-b', 'fleet'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM alert_evaluation WHERE scope = 'fleet'`);
    await db.query(`ALTER TABLE alert_evaluation DROP CONSTRAINT alert_evaluation_scope`);
    await db.query(
      `ALTER TABLE alert_evaluation ADD CONSTRAINT alert_evaluation_scope CHECK (scope IN ('tier-a', 'tier-b'))`,
    );
  }
}
