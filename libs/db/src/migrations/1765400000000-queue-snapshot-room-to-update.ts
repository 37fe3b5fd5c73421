import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room in each `queue_snapshot` page for its rows' next versions (issue 32, item 2). Filled to the
 * brim, a page had no room for a changed row's new version, so every update went to another page
 * and added an entry to both of the table's indexes, whose pages are each logged whole once after
 * every checkpoint (at 5% of queues changing, 42% of a window's WAL was whole pages, most of them
 * index pages). With half of each page free the update stays in its page (a heap-only update: no
 * index entry), and the page's older versions are pruned when it is next written.
 */
export class QueueSnapshotRoomToUpdate1765400000000 implements MigrationInterface {
  name = 'QueueSnapshotRoomToUpdate1765400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE queue_snapshot SET (fillfactor = 50)`);
    // The pages written so far are full: rewritten once, the table starts with the room.
    await db.query(`CLUSTER queue_snapshot USING queue_snapshot_pkey`);
    await db.query(`ALTER TABLE queue_snapshot SET WITHOUT CLUSTER`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE queue_snapshot RESET (fillfactor)`);
  }
}
