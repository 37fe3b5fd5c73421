import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Address history that costs what changes (issue 32, ADR-0022): an `address_sample` row only when
 * an address's figures changed or its heartbeat is due, and an `ended` row where what it holds
 * stops being known (removed, unread, its node no longer live). It holds at its node's ticks
 * (`queue_tick`) until its next sample, as a queue's does (ADR-0019).
 */
export class ChangeDrivenAddressSamples1765300000000 implements MigrationInterface {
  name = 'ChangeDrivenAddressSamples1765300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE address_sample ADD COLUMN ended boolean NOT NULL DEFAULT false`);
    // The history kept so far sampled every address read at every tick, with its node's queues: a
    // sample not followed by one at its node's next tick was of an address unknown from there (gone
    // or unread), so it ends there. One pass of each table (a probe of queue_tick per sample took
    // minutes on a week of a large fleet).
    await db.query(`
      INSERT INTO address_sample (sampled_at, cluster_id, node_id, address, size_bytes, pages, limit_percent,
                                  paging, ended)
      WITH ticks AS (
        SELECT node_id, ticked_at, lead(ticked_at) OVER (PARTITION BY node_id ORDER BY ticked_at) AS next_tick
          FROM queue_tick
      ), samples AS (
        SELECT *, lead(sampled_at) OVER (PARTITION BY node_id, address ORDER BY sampled_at) AS next_sample
          FROM address_sample
      )
      SELECT t.next_tick, s.cluster_id, s.node_id, s.address, s.size_bytes, s.pages, s.limit_percent, s.paging, true
        FROM samples s JOIN ticks t ON t.node_id = s.node_id AND t.ticked_at = s.sampled_at
       WHERE t.next_tick IS NOT NULL AND (s.next_sample IS NULL OR s.next_sample > t.next_tick)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM address_sample WHERE ended`);
    await db.query(`ALTER TABLE address_sample DROP COLUMN ended`);
  }
}
