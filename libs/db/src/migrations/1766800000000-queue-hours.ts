import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Baselines (issue 61, item 2, ADR-0039): a queue's usual depth for each hour of the week is
 * learned from its own past weeks, but a queue's samples are kept a day. Each hour that ended is
 * summed up, a row per queue, and kept as long as the nodes' hourly rollups.
 * `queue_hour_summarized` says which hours were, so each is read once whichever replica runs.
 */
export class QueueHours1766800000000 implements MigrationInterface {
  name = 'QueueHours1766800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE queue_hour (
        cluster_id uuid NOT NULL,
        queue      text NOT NULL,
        hour       timestamptz NOT NULL,
        depth_peak bigint NOT NULL,
        PRIMARY KEY (cluster_id, queue, hour)
      )`);
    // The evaluation reads one cluster's queues at a dozen hours; the reaper, the old hours.
    await db.query(`CREATE INDEX queue_hour_at ON queue_hour (cluster_id, hour)`);
    await db.query(`CREATE INDEX queue_hour_age ON queue_hour USING brin (hour)`);
    await db.query(`
      CREATE TABLE queue_hour_summarized (
        hour   timestamptz PRIMARY KEY,
        queues integer NOT NULL,
        at     timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE queue_hour_summarized`);
    await db.query(`DROP TABLE queue_hour`);
  }
}
