import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ClustersController } from './clusters/clusters.controller';
import { GATEWAY_CONFIG, loadGatewayConfig } from './gateway.config';
import { GatewayData } from './gateway-data.service';
import { ApiErrorFilter } from './http/api-error.filter';
import { SettingsController } from './settings/settings.controller';
import { StateController } from './state/state.controller';
import { StreamController, StreamService } from './stream/stream.controller';

/** The HTTP API under /api/v1, cluster registration, runtime settings and the SSE hub. */
@Module({
  imports: [PlatformModule.forService({ service: 'gateway', defaultPort: 8080 })],
  controllers: [ClustersController, StateController, SettingsController, StreamController],
  providers: [
    { provide: GATEWAY_CONFIG, useFactory: () => loadGatewayConfig(process.env) },
    { provide: APP_FILTER, useClass: ApiErrorFilter },
    GatewayData,
    StreamService,
  ],
})
export class GatewayModule {}
