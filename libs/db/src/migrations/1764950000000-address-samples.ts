import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each address's paging-store figures per node at every tier-B tick, for the address chart and
 * for a new owner's forecasts (kept and reaped like `metric_sample`). `limit_percent` is null when
 * the broker did not say: unknown, never 0.
 */
export class AddressSamples1764950000000 implements MigrationInterface {
  name = 'AddressSamples1764950000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE address_sample (
        sampled_at    timestamptz NOT NULL,
        cluster_id    uuid NOT NULL,
        node_id       uuid NOT NULL,
        size_bytes    bigint NOT NULL,
        pages         integer NOT NULL,
        limit_percent smallint,
        paging        boolean NOT NULL,
        address       text NOT NULL
      ) WITH (fillfactor = 100)`);
    await db.query(`CREATE INDEX address_sample_series ON address_sample (cluster_id, address, sampled_at)`);
    await db.query(`CREATE INDEX address_sample_age ON address_sample USING brin (sampled_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE address_sample`);
  }
}
