import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';

/** The HTTP API under /api/v1, cluster registration, runtime settings and the SSE hub (issue 6). */
@Module({
  imports: [PlatformModule.forService({ service: 'gateway', defaultPort: 8080 })],
})
export class GatewayModule {}
