import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { EventQueriesService } from './queries/event-queries.service';
import { RetentionService } from './retention/retention.service';
import { EventStoreWriterService } from './writer/event-store-writer.service';

/** Durable, batched broker_event persistence with visible drops, replay and history queries. */
@Module({
  imports: [
    PlatformModule.forService({ service: 'event-store', defaultPort: 8083 }),
    ScheduleModule.forRoot(),
  ],
  providers: [EventStoreWriterService, EventQueriesService, RetentionService],
})
export class EventStoreModule {}
