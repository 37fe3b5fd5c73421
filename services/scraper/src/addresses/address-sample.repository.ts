import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import {
  addressSamplesHeld,
  HOURLY_HISTORY,
  reapHourlyHistory,
  rowsOf,
  lookbackFrom,
  type Reaped,
} from '@artemis-studio/db';
import { limitPercentOf, type AddressSampleRow, type OpenAddressSample } from './address-sampler';

/** One address's size on one node at one earlier tick, as `address_sample` keeps it. */
export interface AddressSizeSample {
  nodeId: string;
  address: string;
  atMs: number;
  sizeBytes: number;
}

/** An address's figures as `address_sample` keeps them. */
interface AddressSampleRecord {
  nodeId: string;
  address: string;
  sizeBytes: string;
  pages: number;
  paging: boolean;
  limitPercent: number | null;
}

/**
 * A cluster's address history (ADR-0022): the samples and ends its `AddressSampler` decides on, in
 * one statement per node and tick, and the samples read back as they hold at the nodes' ticks.
 * Only what was read is written: an address listed but unreadable is ended, so its chart shows a
 * gap (unknown), never a zero.
 */
@Injectable()
export class AddressSampleRepository {
  constructor(@Inject(DatabaseService) private readonly database: Pick<DatabaseService, 'whenReady'>) {}

  async record(
    clusterId: string,
    nodeId: string,
    rows: readonly AddressSampleRow[],
    observedAt: Date,
  ): Promise<void> {
    if (rows.length === 0) return;
    const db = await this.database.whenReady();
    const column = <T>(of: (a: AddressSampleRow) => T) => rows.map(of);
    await db.query(
      `INSERT INTO address_sample (sampled_at, cluster_id, node_id, address, size_bytes, paging, pages, limit_percent, ended)
       SELECT $1, $2, $3, t.* FROM unnest($4::text[], $5::bigint[], $6::bool[], $7::int[], $8::smallint[], $9::bool[])
         AS t(address, size_bytes, paging, pages, limit_percent, ended)`,
      [
        observedAt,
        clusterId,
        nodeId,
        column((a) => a.name),
        column((a) => a.sizeBytes),
        column((a) => a.paging),
        column((a) => a.pages),
        column(limitPercentOf),
        column((a) => a.ended),
      ],
    );
  }

  /**
   * Each address's last sample on each node of the cluster within the lookback, unless it ended:
   * what a new owner's sampler starts from.
   */
  async openSamples(clusterId: string, now: Date): Promise<OpenAddressSample[]> {
    const db = await this.database.whenReady();
    const rows = await rowsOf<AddressSampleRecord & { ended: boolean; sampledAt: Date }>(
      db,
      `SELECT * FROM (
         SELECT DISTINCT ON (node_id, address) node_id AS "nodeId", address, sampled_at AS "sampledAt", ended,
                size_bytes AS "sizeBytes", pages, paging, limit_percent AS "limitPercent"
           FROM address_sample
          WHERE cluster_id = $1 AND sampled_at >= $2 AND sampled_at <= $3
          ORDER BY node_id, address, sampled_at DESC) last
        WHERE NOT ended`,
      [clusterId, lookbackFrom(now), now],
    );
    return rows.map((r) => ({
      nodeId: r.nodeId,
      sampledAt: r.sampledAt,
      address: {
        name: r.address,
        sizeBytes: Number(r.sizeBytes),
        pages: r.pages,
        paging: r.paging,
        limitFraction: r.limitPercent === null ? null : r.limitPercent / 100,
      },
    }));
  }

  /**
   * A cluster's address sizes as they held at its nodes' ticks in [since, until), oldest first (for
   * the forecasts' trends): an unchanged address counts at every tick, as it was read.
   */
  async sizesBetween(clusterId: string, since: Date, until: Date): Promise<AddressSizeSample[]> {
    const db = await this.database.whenReady();
    const rows = await rowsOf<{ nodeId: string; address: string; at: Date; sizeBytes: string }>(
      db,
      `WITH ${addressSamplesHeld({ lookbackParam: '$4' })}
       SELECT node_id AS "nodeId", address, ticked_at AS at, size_bytes AS "sizeBytes" FROM held
        ORDER BY ticked_at, node_id, address`,
      [clusterId, since, until, lookbackFrom(since)],
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
