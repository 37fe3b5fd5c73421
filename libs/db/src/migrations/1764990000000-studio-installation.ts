import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row naming this Studio installation (its database): replicas of a service count each other
 * as members only within it (ADR-0016). Two installations sharing one NATS (a staging Studio next
 * to production, or the test suites' databases) would otherwise rank each other's replicas as
 * owners of clusters those replicas have never heard of, and leave the clusters unowned for a TTL.
 */
export class StudioInstallation1764990000000 implements MigrationInterface {
  name = 'StudioInstallation1764990000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE studio_installation (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        created_at timestamptz NOT NULL DEFAULT now(),
        singleton  boolean NOT NULL DEFAULT true UNIQUE CHECK (singleton)
      )`);
    await db.query(`INSERT INTO studio_installation DEFAULT VALUES`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE studio_installation`);
  }
}
