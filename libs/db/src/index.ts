export * from './entities';
export { createDataSource } from './data-source';
export { migrate } from './migrate';
export { SecretVault } from './secret-vault';
export { ClusterTargetQueries, sealCredential } from './cluster-target.queries';
export type { ClusterTarget, ClusterTargetNode } from './cluster-target.queries';
export { reapOlderThan } from './reap';
export { changeOf, Filters, firstRow, isoOrNull, pageBefore, rowsOf } from './sql';
export type { Sql } from './sql';
