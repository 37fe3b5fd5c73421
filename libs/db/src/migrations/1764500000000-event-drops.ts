import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-cluster counts of broker events lost at a bound (non-negotiable 2), shared by replicas and
 * surviving restarts, and the report ids already counted, so a retried report counts once.
 */
export class EventDrops1764500000000 implements MigrationInterface {
  name = 'EventDrops1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE event_drop_counter (
        cluster_id uuid NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        dropped    bigint NOT NULL,
        source     text NOT NULL,
        PRIMARY KEY (cluster_id, source)
      )`);
    await db.query(`
      CREATE TABLE event_drop_report (
        report_id   uuid PRIMARY KEY,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE event_drop_report`);
    await db.query(`DROP TABLE event_drop_counter`);
  }
}
