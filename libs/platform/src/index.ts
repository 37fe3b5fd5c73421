export { PlatformModule } from './platform.module';
export type { PlatformOptions } from './platform.module';
export { bootstrapService, createServiceApp } from './bootstrap';
export { BUS } from './bus/bus.provider';
export {
  BaseEnvSchema,
  ConfigError,
  SERVICE_CONFIG,
  loadServiceConfig,
  parseEnv,
} from './config/service-config';
export type { ServiceConfig } from './config/service-config';
export { DatabaseService } from './database/database.service';
export { READINESS_CHECKS, assessReadiness } from './health/readiness';
export type { ReadinessCheck, ReadinessReport } from './health/readiness';
export { createRegistry, busMetrics } from './metrics/metrics';
export { ClusterLeases } from './leases/cluster-leases';
export { SettingsService, SETTINGS_REFRESH_MS } from './settings/settings.service';
export { InvalidSettingError, SettingsStore, effectiveSettings } from './settings/settings-store';
export { OwnedClusters, ownedClustersFor, replicaId } from './leases/owned-clusters';
export type { ClusterWork, OwnedClustersForOptions, OwnedClustersOptions } from './leases/owned-clusters';
export { Sleeper } from './sleeper';
