export * from './entities';
export { createDataSource } from './data-source';
export type { DataSourceOptions } from './data-source';
export { migrate } from './migrate';
export { MIGRATIONS } from './migrations';
export { SecretVault, SecretVaultError } from './secret-vault';
export { ClusterCatalog, sealCredential } from './cluster-catalog';
export type { ClusterTarget, ClusterTargetNode } from './cluster-catalog';
