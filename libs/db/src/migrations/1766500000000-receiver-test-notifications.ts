import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A receiver's test notification (issue 61): an owed delivery like any other, sent by the
 * cluster's owner through the receiver's channel and kept in the delivery log, but of no alert.
 */
export class ReceiverTestNotifications1766500000000 implements MigrationInterface {
  name = 'ReceiverTestNotifications1766500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE alert_delivery
        ALTER COLUMN alert_id DROP NOT NULL,
        DROP CONSTRAINT alert_delivery_transition_check,
        ADD CONSTRAINT alert_delivery_transition_check CHECK (transition IN ('pending', 'firing', 'resolved', 'test')),
        ADD CONSTRAINT alert_delivery_test_has_no_alert CHECK ((transition = 'test') = (alert_id IS NULL))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM alert_delivery WHERE transition = 'test'`);
    await db.query(`
      ALTER TABLE alert_delivery
        DROP CONSTRAINT alert_delivery_test_has_no_alert,
        DROP CONSTRAINT alert_delivery_transition_check,
        ADD CONSTRAINT alert_delivery_transition_check CHECK (transition IN ('pending', 'firing', 'resolved')),
        ALTER COLUMN alert_id SET NOT NULL`);
  }
}
