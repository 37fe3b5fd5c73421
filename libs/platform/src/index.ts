export { PlatformModule } from './platform.module';
export { bootstrapService, createServiceApp } from './bootstrap';
export { BUS } from './bus/bus.provider';
export { BaseEnvSchema, SERVICE_CONFIG, parseEnv } from './config/service-config';
export type { ServiceConfig } from './config/service-config';
export { DatabaseService, DatabaseUnavailableError } from './database/database.service';
export { SettingsService } from './settings/settings.service';
export { InvalidSettingError, SettingsStore, effectiveSettings } from './settings/settings-store';
export { OwnedClusters, ownedClustersFor, replicaId } from './leases/owned-clusters';
