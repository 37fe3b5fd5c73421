import type { DataSource } from 'typeorm';
import { baselineAt, baselineHours, HOUR_MS, hourOf, type Baseline, type UsualBand } from './queue-baselines';
import { reapOlderThan } from './sql/reap';
import { rowsOf } from './sql/typed-rows';

/**
 * The queues' hours (ADR-0039): each ended hour summed up per queue by the scraper's history
 * keeper, read back as the usual band of an hour of the week by the evaluation and the charts.
 */
export class QueueHourQueries {
  constructor(private readonly db: Pick<DataSource, 'query' | 'transaction'>) {}

  /** The hours in [fromMs, toMs) not summed up yet, oldest first. */
  async hoursLeft(fromMs: number, toMs: number): Promise<number[]> {
    const rows = await rowsOf<{ hour: Date }>(
      this.db,
      `SELECT h AS hour FROM generate_series($1::timestamptz, $2::timestamptz, interval '1 hour') h
        WHERE h < $2 AND NOT EXISTS (SELECT 1 FROM queue_hour_summarized s WHERE s.hour = h)
        ORDER BY h`,
      [new Date(fromMs), new Date(toMs)],
    );
    return rows.map((r) => r.hour.getTime());
  }

  /**
   * Sums up one hour: each queue's highest depth sampled in it, its nodes' peaks added up. Once,
   * whichever replica comes first (the other finds the mark and writes nothing); returns how many
   * queues it wrote, null when another replica had.
   */
  summarize(hourMs: number): Promise<number | null> {
    return this.db.transaction(async (tx) => {
      const marked = await rowsOf(
        tx,
        `INSERT INTO queue_hour_summarized (hour, queues) VALUES ($1, 0) ON CONFLICT DO NOTHING RETURNING hour`,
        [new Date(hourMs)],
      );
      if (marked.length === 0) return null;
      const [{ queues }] = await rowsOf<{ queues: number }>(
        tx,
        `WITH peaks AS (
           SELECT cluster_id, queue, node_id, max(message_count) AS peak
             FROM metric_sample
            WHERE sampled_at >= $1 AND sampled_at < $2 AND NOT ended
            GROUP BY cluster_id, queue, node_id),
         written AS (
           INSERT INTO queue_hour (cluster_id, queue, hour, depth_peak)
           SELECT cluster_id, queue, $1, sum(peak) FROM peaks GROUP BY cluster_id, queue
           ON CONFLICT DO NOTHING RETURNING 1)
         SELECT count(*)::int AS queues FROM written`,
        [new Date(hourMs), new Date(hourMs + HOUR_MS)],
      );
      await tx.query(`UPDATE queue_hour_summarized SET queues = $2 WHERE hour = $1`, [
        new Date(hourMs),
        queues,
      ]);
      return queues;
    });
  }

  /**
   * Every queue's band of the cluster at `atMs`, by queue: the queues it has now and those with
   * hours at the band's hours. Two statements whose cost follows the queue count, not the
   * history's length: the dozen hours by their index, and each queue's first hour by one descent
   * of the key (a GROUP BY over a month of 10,000 queues' hours would read 7 million rows).
   */
  async baselines(clusterId: string, atMs: number): Promise<Map<string, Baseline>> {
    const hours = baselineHours(atMs).map((h) => new Date(h));
    const rows = await rowsOf<{ queue: string; hour: Date; peak: string }>(
      this.db,
      `SELECT queue, hour, depth_peak AS peak FROM queue_hour
        WHERE cluster_id = $1 AND hour = ANY ($2::timestamptz[])`,
      [clusterId, hours],
    );
    const firsts = await rowsOf<{ queue: string; first: Date | null }>(
      this.db,
      `SELECT n.queue,
              (SELECT min(h.hour) FROM queue_hour h WHERE h.cluster_id = $1 AND h.queue = n.queue) AS first
         FROM (SELECT name AS queue FROM queue_snapshot WHERE cluster_id = $1
               UNION
               SELECT queue FROM queue_hour WHERE cluster_id = $1 AND hour = ANY ($2::timestamptz[])) n`,
      [clusterId, hours],
    );
    const peaks = new Map<string, Map<number, number>>();
    for (const r of rows) {
      let queue = peaks.get(r.queue);
      if (!queue) peaks.set(r.queue, (queue = new Map()));
      queue.set(r.hour.getTime(), Number(r.peak));
    }
    return new Map(
      firsts.map((f) => [
        f.queue,
        baselineAt(peaks.get(f.queue) ?? new Map(), f.first?.getTime() ?? null, atMs),
      ]),
    );
  }

  /**
   * One queue's band at each hour of [fromMs, toMs), for its chart; `why` says why the hours
   * without one have none (the last hour's reason).
   */
  async bands(
    clusterId: string,
    queue: string,
    fromMs: number,
    toMs: number,
  ): Promise<{ hours: (UsualBand & { at: number })[]; why: string | null }> {
    const start = hourOf(fromMs);
    const rows = await rowsOf<{ hour: Date; peak: string; first: Date }>(
      this.db,
      `SELECT hour, depth_peak AS peak,
              (SELECT min(hour) FROM queue_hour WHERE cluster_id = $1 AND queue = $2) AS first
         FROM queue_hour WHERE cluster_id = $1 AND queue = $2 AND hour >= $3 AND hour < $4`,
      [clusterId, queue, new Date(start - 4 * 7 * 24 * HOUR_MS - HOUR_MS), new Date(toMs)],
    );
    const peaks = new Map(rows.map((r) => [r.hour.getTime(), Number(r.peak)]));
    const first = rows[0]?.first.getTime() ?? null;
    const hours: (UsualBand & { at: number })[] = [];
    let why: string | null = null;
    for (let at = start; at < toMs; at += HOUR_MS) {
      const baseline = baselineAt(peaks, first, at);
      if (baseline.band) hours.push({ at, ...baseline.band });
      else why = baseline.why;
    }
    return { hours, why };
  }

  /** The hours older than the cut-off, and their marks. */
  async reap(olderThan: Date, batchSize = 10_000): Promise<number> {
    const rows = await reapOlderThan(this.db, { table: 'queue_hour', age: 'hour' }, olderThan, batchSize);
    await reapOlderThan(this.db, { table: 'queue_hour_summarized', age: 'hour' }, olderThan, batchSize);
    return rows;
  }
}
