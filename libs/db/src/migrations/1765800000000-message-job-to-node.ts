import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A move to the same queue on another node of the cluster (issue 59: stranded messages moved to the
 * node with consumers): the node it goes to; null for every other job.
 */
export class MessageJobToNode1765800000000 implements MigrationInterface {
  name = 'MessageJobToNode1765800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_job ADD COLUMN to_node text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_job DROP COLUMN to_node`);
  }
}
