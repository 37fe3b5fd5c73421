import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Slack, Teams and email receivers; an email receiver's sender, recipients and SMTP login (its
 * password is the sealed secret, as a chat webhook's URL is).
 */
export class AlertReceiverEmail1764940000000 implements MigrationInterface {
  name = 'AlertReceiverEmail1764940000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE alert_receiver ADD COLUMN email jsonb`);
    await db.query(`ALTER TABLE alert_receiver DROP CONSTRAINT alert_receiver_kind_check`);
    await db.query(`
      ALTER TABLE alert_receiver ADD CONSTRAINT alert_receiver_kind_check
        CHECK (kind IN ('alertmanager', 'webhook', 'slack', 'teams', 'email'))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM alert_receiver WHERE kind NOT IN ('alertmanager', 'webhook')`);
    await db.query(`ALTER TABLE alert_receiver DROP CONSTRAINT alert_receiver_kind_check`);
    await db.query(
      `ALTER TABLE alert_receiver ADD CONSTRAINT alert_receiver_kind_check CHECK (kind IN ('alertmanager', 'webhook'))`,
    );
    await db.query(`ALTER TABLE alert_receiver DROP COLUMN email`);
  }
}
