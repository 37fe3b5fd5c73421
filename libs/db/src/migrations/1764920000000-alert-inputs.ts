import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What alerts need that was not kept (issue 29), read in the same bulk calls as before:
 * - each queue's oldest waiting message, as the broker's `FirstMessageTimestamp`: stable while the
 *   head of the queue stays, so it moves a snapshot only when the head does (an age would change
 *   every tick); null when the queue is empty or its head carries no time;
 * - each node's journal disk usage against the limit past which the broker blocks producers, and
 *   its address memory against the global limit past which addresses page or block.
 */
export class AlertInputs1764920000000 implements MigrationInterface {
  name = 'AlertInputs1764920000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE queue_snapshot ADD COLUMN first_message_at timestamptz`);
    await db.query(`
      ALTER TABLE node_state
        ADD COLUMN disk_usage double precision,
        ADD COLUMN disk_limit double precision,
        ADD COLUMN memory_bytes bigint,
        ADD COLUMN memory_limit_bytes bigint`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE node_state
        DROP COLUMN disk_usage, DROP COLUMN disk_limit, DROP COLUMN memory_bytes, DROP COLUMN memory_limit_bytes`);
    await db.query(`ALTER TABLE queue_snapshot DROP COLUMN first_message_at`);
  }
}
