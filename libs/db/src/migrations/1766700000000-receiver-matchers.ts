import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert ownership (issue 61): a receiver may take only the alerts whose rule carries each of its
 * matchers (`{"team": "payments"}`), so two teams share a cluster and each hears of its own.
 * Empty, as every receiver before, it takes every alert of its severity.
 */
export class ReceiverMatchers1766700000000 implements MigrationInterface {
  name = 'ReceiverMatchers1766700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE alert_receiver ADD COLUMN matchers jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE alert_receiver DROP COLUMN matchers`);
  }
}
