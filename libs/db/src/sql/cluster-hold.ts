import type { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from './typed-rows';

/**
 * Runs a write to a cluster's own rows (node state, queue snapshots) in a transaction that first
 * holds the cluster row against deletion (FOR KEY SHARE), and resolves to null, writing nothing,
 * when the cluster is gone.
 *
 * Why: deleting a cluster (or replacing its nodes) locks the cluster row, then its cascade locks
 * each child row. A writer that upserts child rows locks them first and the cluster row last (the
 * foreign-key check at the end of its statement): opposite orders, and PostgreSQL aborts one side
 * as a deadlock, failing an operator's delete. Taking the cluster row first puts both in one order,
 * so one simply waits for the other.
 */
export async function whileClusterExists<T>(
  db: Pick<DataSource, 'transaction'>,
  clusterId: string,
  write: (tx: EntityManager) => Promise<T>,
): Promise<T | null> {
  return db.transaction(async (tx) => {
    const held = await rowsOf(tx, `SELECT 1 FROM cluster WHERE id = $1 FOR KEY SHARE`, [clusterId]);
    return held.length === 0 ? null : write(tx);
  });
}
