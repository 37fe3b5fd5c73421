export { PlatformModule } from './platform.module';
export { bootstrapService, createServiceApp } from './bootstrap';
export { BUS } from './bus/bus.provider';
export { SignalPublisher } from './bus/signal-publisher';
export {
  BaseEnvSchema,
  ClusterOwnerEnvSchema,
  SecretKeyEnvSchema,
  SERVICE_CONFIG,
  parseEnv,
} from './config/service-config';
export type { ServiceConfig } from './config/service-config';
export { serviceConfigModule } from './config/config.module';
export { DatabaseService, DatabaseUnavailableError } from './database/database.service';
export { SettingsService } from './settings/settings.service';
export { InvalidSettingError, SettingsRepository, effectiveSettings } from './settings/settings.repository';
export { OwnedClusters } from './leases/owned-clusters';
export { ownedClustersFor } from './leases/owned-clusters-on';
export { preferredOwners } from './leases/preferred-owners';
export { ClusterOwnership } from './leases/cluster-ownership';
export { OPERATIONAL_ENDPOINT } from './http/operational';
export { InstallationGuard } from './installation/installation-guard';
