import type { Bus } from '@artemis-studio/bus';
import { NatsBus } from '@artemis-studio/bus';
import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { Registry } from 'prom-client';
import { BUS, busReadiness, createBus } from './bus/bus.provider';
import { SERVICE_CONFIG, ServiceConfig, loadServiceConfig } from './config/service-config';
import { DatabaseService } from './database/database.service';
import { HealthController } from './health/health.controller';
import { READINESS_CHECKS } from './health/readiness';
import { MetricsController } from './metrics/metrics.controller';
import { createRegistry } from './metrics/metrics';
import { loggingModule } from './logging/logging.module';
import { SettingsService } from './settings/settings.service';
import { InstallationGuard } from './installation/installation-guard';

@Injectable()
class BusLifecycle implements OnApplicationShutdown {
  constructor(@Inject(BUS) private readonly bus: Bus) {}
  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}

export interface PlatformOptions {
  service: string;
  defaultPort: number;
}

/**
 * What every service runs on: its validated configuration, JSON logs, PostgreSQL, the bus,
 * /healthz, /readyz and /metrics. Imported once by each service's root module.
 */
@Global()
@Module({})
export class PlatformModule {
  static forService({ service, defaultPort }: PlatformOptions): DynamicModule {
    return {
      module: PlatformModule,
      imports: [loggingModule(service)],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: SERVICE_CONFIG, useFactory: () => loadServiceConfig(service, defaultPort, process.env) },
        { provide: Registry, useFactory: () => createRegistry(service) },
        DatabaseService,
        SettingsService,
        {
          provide: BUS,
          inject: [SERVICE_CONFIG, Registry],
          useFactory: (config: ServiceConfig, registry: Registry) => createBus(config, registry),
        },
        BusLifecycle,
        InstallationGuard,
        {
          provide: READINESS_CHECKS,
          inject: [DatabaseService, BUS, InstallationGuard],
          useFactory: (database: DatabaseService, bus: NatsBus, installation: InstallationGuard) => [
            database,
            busReadiness(bus),
            installation,
          ],
        },
      ],
      exports: [SERVICE_CONFIG, Registry, DatabaseService, SettingsService, BUS, InstallationGuard],
    };
  }
}
