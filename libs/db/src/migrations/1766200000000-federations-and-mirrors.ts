import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A broker connection's federation and mirror (issue 59): a node lists its peers' connections
 * (incoming) beside its own (outgoing), so the key gains the direction and the peer; each may
 * carry an AMQP federation's totals, and an outgoing one a mirror's backlog.
 */
export class FederationsAndMirrors1766200000000 implements MigrationInterface {
  name = 'FederationsAndMirrors1766200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE broker_connection
        ADD COLUMN direction text NOT NULL DEFAULT 'outgoing' CHECK (direction IN ('outgoing', 'incoming')),
        ADD COLUMN peer_broker_node_id text NOT NULL DEFAULT '',
        ADD COLUMN federation_sent bigint,
        ADD COLUMN federation_received bigint,
        ADD COLUMN mirror_queue text,
        ADD COLUMN mirror_backlog bigint,
        ADD COLUMN mirror_oldest_at timestamptz`);
    await db.query(`ALTER TABLE broker_connection DROP CONSTRAINT broker_connection_pkey`);
    await db.query(
      `ALTER TABLE broker_connection ADD PRIMARY KEY (node_id, direction, peer_broker_node_id, name)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM broker_connection WHERE direction = 'incoming'`);
    await db.query(`ALTER TABLE broker_connection DROP CONSTRAINT broker_connection_pkey`);
    await db.query(`ALTER TABLE broker_connection ADD PRIMARY KEY (node_id, name)`);
    await db.query(`
      ALTER TABLE broker_connection
        DROP COLUMN direction, DROP COLUMN peer_broker_node_id, DROP COLUMN federation_sent,
        DROP COLUMN federation_received, DROP COLUMN mirror_queue, DROP COLUMN mirror_backlog,
        DROP COLUMN mirror_oldest_at`);
  }
}
