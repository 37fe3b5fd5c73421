import { z } from 'zod';
import { Instant } from '../common';

/** At most this many points per series: the range is cut into buckets of at least range / this. */
export const METRIC_POINTS_MAX = 1000;
/** The longest range a metrics query may ask for. */
export const METRIC_RANGE_MAX_MS = 31 * 24 * 3_600_000;
/** The shortest bucket: finer than a tier-B tick shows nothing more. */
export const METRIC_STEP_MIN_MS = 1000;

/**
 * `?from&to&step` of a metrics query. Defaults: the last hour, and the step that gives at most
 * METRIC_POINTS_MAX points. A step finer than that is raised to it, and the answer says so.
 */
export const MetricsQuerySchema = z
  .object({
    from: Instant.optional(),
    to: Instant.optional(),
    /** Bucket width in milliseconds. */
    step: z.coerce.number().int().min(METRIC_STEP_MIN_MS).max(METRIC_RANGE_MAX_MS).optional(),
  })
  .strict();
export type MetricsQuery = z.infer<typeof MetricsQuerySchema>;

/**
 * One bucket of a series. `depth` and `consumers` are the highest seen in the bucket (a peak is
 * what an operator must not miss), summed over nodes; `added` and `acknowledged` are messages
 * counted in the bucket (counter increases, a broker restart's reset taken as a new start).
 * `connections`, on the cluster's series only, is the highest connection count in the bucket,
 * null where no node was observed.
 */
const MetricPointSchema = z.object({
  t: Instant,
  depth: z.number(),
  consumers: z.number(),
  added: z.number(),
  acknowledged: z.number(),
  /** Messages handed to consumers and not yet acknowledged, the highest in the bucket, summed over nodes. */
  delivering: z.number().nullable(),
  /**
   * How long the oldest waiting message had waited, in seconds, the most in the bucket (the oldest
   * of any node); null when no queue had a message the broker dated.
   */
  oldestSeconds: z.number().nullable(),
  /**
   * On the cluster's series only: the lowest and the last depth in the bucket, summed over nodes
   * (with `depth`, the highest, what a long range's bucket hides).
   */
  depthMin: z.number().optional(),
  depthLast: z.number().optional(),
  connections: z.number().nullable().optional(),
  /**
   * On a node's series of the cluster's figures only: its journal disk usage and the usage at which
   * it blocks (`max-disk-usage`), as fractions, and its address memory and global limit in bytes;
   * the highest in the bucket, null where the broker did not say. Absent on `total`.
   */
  diskUsage: z.number().nullable().optional(),
  diskLimit: z.number().nullable().optional(),
  memoryBytes: z.number().nullable().optional(),
  memoryLimitBytes: z.number().nullable().optional(),
});

const MetricSeriesSchema = z.object({
  /** A node's name, or `total` for the sum over nodes. */
  node: z.string(),
  points: z.array(MetricPointSchema),
});

export const MetricsResponseSchema = z.object({
  from: Instant,
  to: Instant,
  /**
   * The bucket width used, in milliseconds: the asked step, or raised to keep to the point cap, or
   * (a cluster's series) to whole minutes or hours where its history is read from rollups.
   */
  stepMs: z.number().int().positive(),
  series: z.array(MetricSeriesSchema),
});
export type MetricsResponse = z.infer<typeof MetricsResponseSchema>;

/**
 * One bucket of an address's series, each figure the highest seen in the bucket (a peak is what an
 * operator must not miss). On a node's series: its paging store. On the total: `sizeBytes` and
 * `pages` summed over nodes, `limitPercent` the fullest node's (each node pages on its own), and
 * `paging` on any node. `limitPercent` is null where the broker did not say; a bucket no node
 * sampled has no point (unknown, never zero).
 */
const AddressMetricPointSchema = z.object({
  t: Instant,
  sizeBytes: z.number(),
  pages: z.number(),
  /** The address's size against its own `max-size-bytes`, in whole percent (the broker rounds down). */
  limitPercent: z.number().nullable(),
  paging: z.boolean(),
});
export type AddressMetricPoint = z.infer<typeof AddressMetricPointSchema>;

export const AddressMetricsResponseSchema = z.object({
  from: Instant,
  to: Instant,
  stepMs: z.number().int().positive(),
  series: z.array(z.object({ node: z.string(), points: z.array(AddressMetricPointSchema) })),
});
export type AddressMetricsResponse = z.infer<typeof AddressMetricsResponseSchema>;

/** `?window&limit` of the fastest-growing queues: depth now against depth `window` ago. */
export const QueueGrowthQuerySchema = z
  .object({
    window: z.coerce
      .number()
      .int()
      .min(60_000)
      .max(24 * 3_600_000)
      .default(15 * 60_000),
    limit: z.coerce.number().int().min(1).max(100).default(10),
  })
  .strict();
export type QueueGrowthQuery = z.infer<typeof QueueGrowthQuerySchema>;

const QueueGrowthSchema = z.object({
  queue: z.string(),
  node: z.string(),
  depth: z.number(),
  /** Depth now minus the depth at the start of the window (the first sample in it). */
  growth: z.number(),
  since: Instant,
});
export const QueueGrowthResponseSchema = z.object({
  windowMs: z.number().int(),
  items: z.array(QueueGrowthSchema),
});
export type QueueGrowthResponse = z.infer<typeof QueueGrowthResponseSchema>;

/**
 * `GET /api/v1/clusters/{id}/queues/{queue}/baseline`: the queue's usual depth at each hour of the
 * range, learned from its own past weeks (ADR-0039, docs/alerting.md "Baselines"): the 10th, 50th
 * and 90th percentiles of its hourly peaks at that hour of the week and the hours either side, over
 * the last four weeks. An hour seen in fewer than two of them has no band (unknown, never zero);
 * `why` says why, for the last such hour.
 */
export const QueueBaselineResponseSchema = z.object({
  from: Instant,
  to: Instant,
  hours: z.array(
    z.object({
      /** The hour's start. */
      t: Instant,
      low: z.number(),
      usual: z.number(),
      high: z.number(),
      /** How many of the last four weeks were seen at that hour. */
      weeks: z.number().int(),
    }),
  ),
  why: z.string().nullable(),
});
export type QueueBaselineResponse = z.infer<typeof QueueBaselineResponseSchema>;
