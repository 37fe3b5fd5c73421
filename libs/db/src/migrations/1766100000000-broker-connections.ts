import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each live node's broker connections (AMQP: mirrors, links to other sites) as tier B last read
 * them (issue 59): started, and connected to their peer. The scraper's, rewritten each tier-B tick.
 */
export class BrokerConnections1766100000000 implements MigrationInterface {
  name = 'BrokerConnections1766100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE broker_connection (
        node_id      uuid NOT NULL REFERENCES cluster_node (id) ON DELETE CASCADE,
        cluster_id   uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        name         text NOT NULL,
        started      boolean NOT NULL,
        connected    boolean NOT NULL,
        observed_at  timestamptz NOT NULL,
        PRIMARY KEY (node_id, name)
      )`);
    await db.query(`CREATE INDEX broker_connection_cluster ON broker_connection (cluster_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE broker_connection`);
  }
}
