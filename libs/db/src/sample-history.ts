/**
 * The history's heartbeat (ADR-0019 for queues, ADR-0022 for addresses): an unchanged queue or
 * address is sampled again after this long, so the sample that holds at any moment is never older
 * than this and a tick. The scraper writes by it and the gateway reads by it: part of the
 * storage's contract, not a setting.
 */
export const SAMPLE_HEARTBEAT_MS = 10 * 60_000;

/**
 * How far before a range the gateway looks for the sample holding at its start: a heartbeat and
 * then some, for a tier-B interval of up to the heartbeat itself.
 */
const SAMPLE_LOOKBACK_MS = 2 * SAMPLE_HEARTBEAT_MS;

/**
 * How far before a moment the sample holding at it is looked for. Computed by the caller and
 * passed as a parameter: PostgreSQL leaves out the hours' partitions outside a range when planning
 * only for a parameter's bound, not an expression of one, and planning all of a week's took 27 ms.
 */
export const lookbackFrom = (at: Date): Date => new Date(at.getTime() - SAMPLE_LOOKBACK_MS);

/**
 * The resolutions, in seconds, at which the scraper rolls up each node's figures (`node_rollup`,
 * ADR-0020): a cluster's chart reads the coarsest that is no wider than its step.
 */
export const NODE_ROLLUP_RESOLUTIONS_S = [60, 3600] as const;
export type NodeRollupResolution = (typeof NODE_ROLLUP_RESOLUTIONS_S)[number];

/**
 * `tick_gap` and `held`, after a common table `s` of samples (node_id, sampled_at, ended, and
 * `until` and `ends`: when its next sample is and whether that is an end), read from
 * `lookbackParam`: each sample at every tick it holds at in [`$2`, `$3`) of cluster `$1`, as `held`
 * (its columns and `ticked_at`). A sample holds at its own tick (it is written with one) and at
 * its node's later ticks (`queue_tick`) until its next sample (ADR-0019); a tick without a sample
 * holding is unknown.
 */
export const samplesHeldAtTicks = (lookbackParam: string): string => `
  tick_gap AS (
    SELECT node_id, min(gap) AS gap
      FROM (SELECT node_id, ticked_at - lag(ticked_at) OVER (PARTITION BY node_id ORDER BY ticked_at) AS gap
              FROM queue_tick WHERE cluster_id = $1 AND ticked_at < $3 AND ticked_at >= ${lookbackParam}) g
     GROUP BY node_id
  ), held AS (
    SELECT s.*, s.sampled_at AS ticked_at FROM s WHERE NOT s.ended AND s.sampled_at >= $2
    UNION ALL
    -- The ticks after it, until the next sample. There can be one only if the next is two of the
    -- node's shortest tick gaps away (or is an end, written at any time): without that test every
    -- sample of a series changing at every tick was an index probe of queue_tick finding nothing,
    -- and a busy queue's chart took twice as long. One index range scan per such sample (OFFSET 0
    -- keeps the planner from turning it into a hash join filtered by the range: a day of a
    -- 1,000-queue cluster took two minutes so). The test is made before the lateral, not in it:
    -- over the hours' partitions (ADR-0021) each lateral run costs a pruning of them, found or not
    -- (a week's busy queue: +40%).
    SELECT h.*, t.ticked_at
      FROM (SELECT s.* FROM s LEFT JOIN tick_gap g ON g.node_id = s.node_id
             WHERE NOT s.ended AND (s.ends OR s.until >= s.sampled_at + 2 * coalesce(g.gap, interval '0'))
            OFFSET 0) h
     CROSS JOIN LATERAL (
           SELECT ticked_at FROM queue_tick
            WHERE cluster_id = $1 AND node_id = h.node_id AND ticked_at > h.sampled_at
              AND ticked_at >= $2 AND ticked_at < $3 AND ticked_at < h.until
           OFFSET 0) t
  )`;

/**
 * The address samples of cluster `$1` that hold at their node's ticks in [`$2`, `$3`), as `held`
 * (node_id, address, ticked_at, size_bytes, pages, limit_percent, paging, ...), for the gateway's
 * chart and the scraper's forecasts alike (ADR-0022): the queue series' rule, with the node's
 * ticks saying when its addresses were read too. A sample holds for a lookback at most: the
 * scraper samples every address it reads at least once a heartbeat, so a sample older than that
 * with no successor lost its end (history written before ends were) and is not carried on.
 * Samples are read from `lookbackParam` (a parameter: the hours' partitions before it are left out
 * when planning); `address` narrows to one.
 */
export function addressSamplesHeld(p: { lookbackParam: string; address?: string }): string {
  return `
  s AS (
    SELECT node_id, address, sampled_at, ended, size_bytes, pages, limit_percent, paging,
           least(coalesce(lead(sampled_at) OVER w, 'infinity'),
                 sampled_at + interval '${SAMPLE_LOOKBACK_MS / 1000} seconds') AS until,
           coalesce(lead(ended) OVER w, false) AS ends
      FROM address_sample
     WHERE cluster_id = $1 ${p.address ? `AND address = ${p.address}` : ''}
       AND sampled_at >= ${p.lookbackParam} AND sampled_at < $3
    WINDOW w AS (PARTITION BY node_id, address ORDER BY sampled_at)
  ), ${samplesHeldAtTicks(p.lookbackParam)}`;
}
