import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import { HOURLY_HISTORY, reapHourlyHistory, rowsOf, type Reaped } from '@artemis-studio/db';
import type { AddressSizeSample } from '../alerting/address-facts';
import type { AddressObservation } from './address-observation';

/**
 * Appends one node's addresses at one tier-B tick to `address_sample`, in one statement. Only what
 * was read is written: an address listed but unreadable has no sample at that tick, so its chart
 * shows a gap (unknown), never a zero.
 */
@Injectable()
export class AddressSampleRepository {
  constructor(@Inject(DatabaseService) private readonly database: Pick<DatabaseService, 'whenReady'>) {}

  async record(
    clusterId: string,
    nodeId: string,
    addresses: readonly AddressObservation[],
    observedAt: Date,
  ): Promise<void> {
    if (addresses.length === 0) return;
    const db = await this.database.whenReady();
    const column = <T>(of: (a: AddressObservation) => T) => addresses.map(of);
    await db.query(
      `INSERT INTO address_sample (sampled_at, cluster_id, node_id, address, size_bytes, paging, pages, limit_percent)
       SELECT $1, $2, $3, t.* FROM unnest($4::text[], $5::bigint[], $6::bool[], $7::int[], $8::smallint[])
         AS t(address, size_bytes, paging, pages, limit_percent)`,
      [
        observedAt,
        clusterId,
        nodeId,
        column((a) => a.name),
        column((a) => a.sizeBytes),
        column((a) => a.paging),
        column((a) => a.pages),
        column((a) => (a.limitFraction === null ? null : Math.round(a.limitFraction * 100))),
      ],
    );
  }

  /** A cluster's address sizes sampled in [since, until), oldest first (for the forecasts' trends). */
  async sizesBetween(clusterId: string, since: Date, until: Date): Promise<AddressSizeSample[]> {
    const db = await this.database.whenReady();
    const rows = await rowsOf<{ nodeId: string; address: string; at: Date; sizeBytes: string }>(
      db,
      `SELECT node_id AS "nodeId", address, sampled_at AS at, size_bytes AS "sizeBytes" FROM address_sample
        WHERE sampled_at >= $2 AND sampled_at < $3 AND cluster_id = $1
        ORDER BY sampled_at`,
      [clusterId, since, until],
    );
    return rows.map((r) => ({
      nodeId: r.nodeId,
      address: r.address,
      atMs: r.at.getTime(),
      sizeBytes: Number(r.sizeBytes),
    }));
  }

  /** Removes samples older than the cut-off: whole hours dropped, the rest in bounded batches (ADR-0021). */
  async reapSamples(olderThan: Date, batchSize = 10_000): Promise<Reaped> {
    const db = await this.database.whenReady();
    return reapHourlyHistory(db, HOURLY_HISTORY.address_sample, olderThan, batchSize);
  }
}
