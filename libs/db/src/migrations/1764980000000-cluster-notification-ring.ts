import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether Studio keeps its durable ring of notifications on this cluster's brokers (ADR-0015,
 * issue 30): on by default, turned off per cluster by an operator who wants nothing of Studio's
 * left on a broker.
 */
export class ClusterNotificationRing1764980000000 implements MigrationInterface {
  name = 'ClusterNotificationRing1764980000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE cluster ADD COLUMN notification_ring boolean NOT NULL DEFAULT true`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE cluster DROP COLUMN notification_ring`);
  }
}
