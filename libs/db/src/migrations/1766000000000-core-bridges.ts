import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each live node's core bridges as tier B last read them (issue 59), beside its cluster
 * connections: `connected` is whether the bridge consumed its queue then, since the broker's
 * `Started` stays true while a bridge retries. The scraper's, rewritten each tier-B tick.
 */
export class CoreBridges1766000000000 implements MigrationInterface {
  name = 'CoreBridges1766000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE core_bridge (
        node_id                uuid NOT NULL REFERENCES cluster_node (id) ON DELETE CASCADE,
        cluster_id             uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        name                   text NOT NULL,
        started                boolean NOT NULL,
        connected              boolean NOT NULL,
        queue_name             text NOT NULL,
        forwarding_address     text,
        messages_acknowledged  bigint,
        messages_pending_ack   bigint,
        observed_at            timestamptz NOT NULL,
        PRIMARY KEY (node_id, name)
      )`);
    await db.query(`CREATE INDEX core_bridge_cluster ON core_bridge (cluster_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE core_bridge`);
  }
}
