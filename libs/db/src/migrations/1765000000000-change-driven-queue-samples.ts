import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Queue history that costs what changes (issue 32, ADR-0019): a `metric_sample` row only when a
 * queue's figures changed or its heartbeat is due (`queue_snapshot.sampled_at` says when it last
 * was), an `ended` row where what a queue holds stops being known (removed, its node no longer live, or left unread), and one `queue_tick` row per node and tier-B
 * tick, which says when a node's queues were read: a queue's last sample holds for every tick up to
 * its next one, and a stretch without ticks is unknown.
 */
export class ChangeDrivenQueueSamples1765000000000 implements MigrationInterface {
  name = 'ChangeDrivenQueueSamples1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE queue_snapshot ADD COLUMN sampled_at timestamptz`);
    await db.query(`ALTER TABLE metric_sample ADD COLUMN ended boolean NOT NULL DEFAULT false`);
    await db.query(`
      CREATE TABLE queue_tick (
        ticked_at  timestamptz NOT NULL,
        cluster_id uuid NOT NULL,
        node_id    uuid NOT NULL
      ) WITH (fillfactor = 100)`);
    // A cluster's ticks in a range (the charts), and a node's last tick (its queues' observed time).
    await db.query(`CREATE INDEX queue_tick_series ON queue_tick (cluster_id, node_id, ticked_at)`);
    await db.query(`CREATE INDEX queue_tick_age ON queue_tick USING brin (ticked_at)`);
    // The history kept so far was sampled at every tick: its ticks are when its samples were taken.
    await db.query(`
      INSERT INTO queue_tick (ticked_at, cluster_id, node_id)
      SELECT DISTINCT sampled_at, cluster_id, node_id FROM metric_sample`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE queue_tick`);
    await db.query(`DELETE FROM metric_sample WHERE ended`);
    await db.query(`ALTER TABLE metric_sample DROP COLUMN ended`);
    await db.query(`ALTER TABLE queue_snapshot DROP COLUMN sampled_at`);
  }
}
