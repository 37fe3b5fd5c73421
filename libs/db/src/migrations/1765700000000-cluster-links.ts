import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cluster as its brokers see it (issue 59): each live node's cluster connections as tier B
 * last read them, and the messages stranded on a node without consumers while their queue has
 * consumers on another, with why, since when. Both are the scraper's, rewritten each tier-B tick.
 */
export class ClusterLinks1765700000000 implements MigrationInterface {
  name = 'ClusterLinks1765700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE cluster_connection (
        node_id                  uuid NOT NULL REFERENCES cluster_node (id) ON DELETE CASCADE,
        cluster_id               uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        name                     text NOT NULL,
        started                  boolean NOT NULL,
        max_hops                 integer NOT NULL,
        broker_node_id           text NOT NULL,
        load_balancing           text,
        members                  jsonb NOT NULL,
        connected_to             jsonb NOT NULL,
        messages_pending_ack     bigint,
        messages_acknowledged    bigint,
        observed_at              timestamptz NOT NULL,
        PRIMARY KEY (node_id, name)
      )`);
    await db.query(`CREATE INDEX cluster_connection_cluster ON cluster_connection (cluster_id)`);
    await db.query(`
      CREATE TABLE stranded_queue (
        node_id            uuid NOT NULL REFERENCES cluster_node (id) ON DELETE CASCADE,
        cluster_id         uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        queue              text NOT NULL,
        address            text NOT NULL,
        message_count      bigint NOT NULL,
        oldest_message_at  timestamptz,
        consumer_node_ids  uuid[] NOT NULL,
        reason             text NOT NULL CHECK (reason IN ('not-clustered', 'no-shared-bindings',
                             'redistribution-off', 'redistribution-delayed', 'link-not-draining', 'unknown')),
        detail             text NOT NULL,
        since              timestamptz NOT NULL,
        observed_at        timestamptz NOT NULL,
        PRIMARY KEY (node_id, queue)
      )`);
    await db.query(`CREATE INDEX stranded_queue_cluster ON stranded_queue (cluster_id, queue)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE stranded_queue`);
    await db.query(`DROP TABLE cluster_connection`);
  }
}
