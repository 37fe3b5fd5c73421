import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each node's client connections: the current count with its tier-A state, and a sample per
 * tier-A tick for the overview's per-node history (kept and reaped like `metric_sample`).
 */
export class NodeSamples1764620000000 implements MigrationInterface {
  name = 'NodeSamples1764620000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE node_state ADD COLUMN connection_count integer`);
    await db.query(`
      CREATE TABLE node_sample (
        sampled_at       timestamptz NOT NULL,
        cluster_id       uuid NOT NULL,
        node_id          uuid NOT NULL,
        connection_count integer NOT NULL
      ) WITH (fillfactor = 100)`);
    await db.query(`CREATE INDEX node_sample_series ON node_sample (cluster_id, sampled_at)`);
    await db.query(`CREATE INDEX node_sample_age ON node_sample USING brin (sampled_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE node_sample`);
    await db.query(`ALTER TABLE node_state DROP COLUMN connection_count`);
  }
}
