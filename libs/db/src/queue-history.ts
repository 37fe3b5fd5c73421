/**
 * The queue history's heartbeat (ADR-0019): an unchanged queue is sampled again after this long,
 * so the sample that holds at any moment is never older than this and a tick. The scraper writes
 * by it and the gateway reads by it: part of the storage's contract, not a setting.
 */
export const QUEUE_SAMPLE_HEARTBEAT_MS = 10 * 60_000;

/**
 * How far before a range the gateway looks for the sample holding at its start: a heartbeat and
 * then some, for a tier-B interval of up to the heartbeat itself.
 */
export const QUEUE_SAMPLE_LOOKBACK_MS = 2 * QUEUE_SAMPLE_HEARTBEAT_MS;

/**
 * The resolutions, in seconds, at which the scraper rolls up each node's figures (`node_rollup`,
 * ADR-0020): a cluster's chart reads the coarsest that is no wider than its step.
 */
export const NODE_ROLLUP_RESOLUTIONS_S = [60, 3600] as const;
export type NodeRollupResolution = (typeof NODE_ROLLUP_RESOLUTIONS_S)[number];
