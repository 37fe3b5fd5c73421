import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Acting on brokers (issue 28): a cluster may be made read-only, refusing every action; and each
 * mutating action request is kept under its idempotency key, so a retried click acts once and is
 * answered what the first one was.
 */
export class BrokerActions1764800000000 implements MigrationInterface {
  name = 'BrokerActions1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE cluster ADD COLUMN read_only boolean NOT NULL DEFAULT false`);
    await db.query(`
      CREATE TABLE action_request (
        cluster_id      uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        idempotency_key text NOT NULL,
        request         jsonb NOT NULL,
        status          integer,
        response        jsonb,
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (cluster_id, idempotency_key)
      )`);
    await db.query(`CREATE INDEX action_request_age ON action_request USING brin (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE action_request`);
    await db.query(`ALTER TABLE cluster DROP COLUMN read_only`);
  }
}
