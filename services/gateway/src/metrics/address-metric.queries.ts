import type { AddressMetricsResponse } from '@artemis-studio/contracts';
import { addressSamplesHeld, lookbackFrom, rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { MetricRange } from './metric-range';
import { binOf, windowOf } from './metric-window';

/** An address's paging-store figures over time (address_sample), per node and in total. */
@Injectable()
export class AddressMetricQueries {
  constructor(private readonly database: DatabaseService) {}

  /**
   * One address's paging-store figures (index address_sample_series), per node and in total: the
   * total sums size and pages, and takes the fullest node's limit percentage (each node pages on its
   * own, so the first to fill decides).
   */
  async addressSeries(
    clusterId: string,
    address: string,
    range: MetricRange,
  ): Promise<AddressMetricsResponse> {
    const rows = await rowsOf<{
      node: string | null;
      total: boolean;
      bucket: Date;
      size_bytes: number;
      pages: number;
      limit_percent: number | null;
      paging: boolean;
    }>(
      await this.database.forRequest(),
      // Each sample held at its node's ticks until its next (ADR-0022); a bucket without a tick is unknown.
      `WITH ${addressSamplesHeld({ lookbackParam: '$6', address: '$5' })},
       per_node AS (
         SELECT node_id, ${binOf('ticked_at')} AS bucket,
                max(size_bytes) AS size_bytes, max(pages) AS pages, max(limit_percent) AS limit_percent,
                bool_or(paging) AS paging
           FROM held
          GROUP BY 1, 2
       )
       SELECT coalesce(n.name, 'removed node') AS node, grouping(n.name) = 1 AS total, p.bucket,
              sum(p.size_bytes)::float8 AS size_bytes, sum(p.pages)::float8 AS pages,
              max(p.limit_percent)::float8 AS limit_percent, bool_or(p.paging) AS paging
         FROM per_node p LEFT JOIN cluster_node n ON n.id = p.node_id
        GROUP BY GROUPING SETS ((p.bucket, n.name), (p.bucket))
        ORDER BY total DESC, node, p.bucket`,
      [clusterId, range.from, range.to, range.stepMs, address, lookbackFrom(range.from)],
    );
    return windowOf(range, rows, (r) => ({
      t: r.bucket.toISOString(),
      sizeBytes: r.size_bytes,
      pages: r.pages,
      limitPercent: r.limit_percent,
      paging: r.paging,
    }));
  }
}
