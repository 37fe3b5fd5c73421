import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';

/** Durable, batched broker_event persistence with visible drops, replay and history queries (issue 5). */
@Module({
  imports: [PlatformModule.forService({ service: 'event-store', defaultPort: 8083 })],
})
export class EventStoreModule {}
