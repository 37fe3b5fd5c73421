import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who may read message bodies, and what is masked before they leave the gateway (issue 28): a
 * role per cluster (operator by default) and masking rules (property names, JSON paths in a
 * body). And the pauses made through Studio, with whether they survive a broker restart: the
 * broker (2.40) says a queue is paused, never whether persistently.
 */
export class MessageAccess1764910000000 implements MigrationInterface {
  name = 'MessageAccess1764910000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE cluster
        ADD COLUMN message_bodies text NOT NULL DEFAULT 'operator'
          CHECK (message_bodies IN ('viewer', 'operator', 'admin')),
        ADD COLUMN masking jsonb NOT NULL DEFAULT '{"properties": [], "bodyPaths": []}'`);
    await db.query(`
      CREATE TABLE queue_pause (
        cluster_id uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        queue      text NOT NULL,
        persist    boolean NOT NULL,
        paused_by  text,
        paused_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (cluster_id, queue)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE queue_pause`);
    await db.query(`ALTER TABLE cluster DROP COLUMN masking, DROP COLUMN message_bodies`);
  }
}
