import type { QueueGrowthResponse } from '@artemis-studio/contracts';
import { lookbackFrom, rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';

/** The queues filling fastest, from their samples (metric_sample). */
@Injectable()
export class QueueGrowthQueries {
  constructor(private readonly database: DatabaseService) {}

  /** The queues whose depth grew most over the last `windowMs`, on any node. */
  async fastestGrowing(clusterId: string, windowMs: number, limit: number): Promise<QueueGrowthResponse> {
    const start = '$2::timestamptz';
    const since = new Date(Date.now() - windowMs);
    const rows = await rowsOf<{ queue: string; node: string; depth: string; growth: string; since: Date }>(
      await this.database.forRequest(),
      // Each queue's depth now against the depth holding at the window's start (its last sample
      // before it, ADR-0019), or its first sample in the window if it was not known then.
      `WITH s AS (
         SELECT node_id, queue,
                (array_agg(message_count ORDER BY sampled_at DESC))[1] AS last,
                (array_agg(ended ORDER BY sampled_at DESC))[1] AS ended,
                (array_agg(CASE WHEN NOT ended THEN message_count END ORDER BY sampled_at DESC)
                   FILTER (WHERE sampled_at <= ${start}))[1] AS at_start,
                (array_agg(message_count ORDER BY sampled_at) FILTER (WHERE sampled_at > ${start} AND NOT ended))[1] AS first,
                min(sampled_at) FILTER (WHERE sampled_at > ${start} AND NOT ended) AS first_at
           FROM metric_sample
          WHERE cluster_id = $1
            AND sampled_at >= $4
          GROUP BY node_id, queue
       )
       SELECT s.queue, coalesce(n.name, 'removed node') AS node, s.last AS depth,
              s.last - coalesce(s.at_start, s.first) AS growth,
              CASE WHEN s.at_start IS NOT NULL THEN ${start} ELSE s.first_at END AS since
         FROM s LEFT JOIN cluster_node n ON n.id = s.node_id
        WHERE NOT s.ended AND s.last > coalesce(s.at_start, s.first)
        ORDER BY growth DESC, s.queue
        LIMIT $3`,
      [clusterId, since, limit, lookbackFrom(since)],
    );
    return {
      windowMs,
      items: rows.map((r) => ({
        queue: r.queue,
        node: r.node,
        depth: Number(r.depth),
        growth: Number(r.growth),
        since: r.since.toISOString(),
      })),
    };
  }
}
