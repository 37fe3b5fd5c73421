export * from './entities';
export { createDataSource, createStatementPool } from './data-source';
export type { StatementPool } from './data-source';
export { migrate } from './sql/migrate';
export { SecretVault } from './secret-vault';
export { ClusterTargetQueries, sealCredential } from './cluster-target.queries';
export type { ClusterTarget, ClusterTargetNode } from './cluster-target.queries';
export { reapOlderThan } from './sql/reap';
export {
  BROKER_EVENT_DAYS,
  ensureHourlyPartitions,
  ensurePartitions,
  EVENT_PARTITIONS_AHEAD_MS,
  HOURLY_HISTORY,
  HOURLY_PARTITIONS_AHEAD_MS,
  partitionName,
  reapHourlyHistory,
  reapPartitions,
  type Reaped,
} from './sql/time-partitions';
export { sortClosedHours, SORT_AFTER_MS } from './sql/hour-sort';
export { QueueHourQueries } from './queue-hours.queries';
export { aboveBand, HOUR_MS, hourOf, type Baseline } from './queue-baselines';
export { whileClusterExists } from './sql/cluster-hold';
export { ping } from './sql/ping';
export { InstallationQueries } from './installation.queries';
export { MessageJobRepository } from './message-job.repository';
export type { JobProgress, NewMessageJob } from './message-job.repository';
export {
  changeOf,
  Filters,
  firstChanged,
  firstRow,
  isoOrNull,
  pageBefore,
  preparedRowsOf,
  rowsOf,
} from './sql/typed-rows';
export type { PreparedStatement, Sql } from './sql/typed-rows';
export { ALERT_SELECT, alertOf, alertRuleOf, SILENCE_OF_ALERT } from './alert.queries';
export type { AlertRow, AlertRuleRow } from './alert.queries';
/** The history as the scraper writes it, made from history written without tick totals or rollups. */
export { addTickTotals, rollUpHistory } from './migrations/1765100000000-node-rollups';
export {
  addressSamplesHeld,
  lookbackFrom,
  NODE_ROLLUP_RESOLUTIONS_S,
  SAMPLE_HEARTBEAT_MS,
  samplesHeldAtTicks,
  type NodeRollupResolution,
} from './sample-history';
