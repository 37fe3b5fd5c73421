import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { HistoryModule } from './history/history.module';
import { RetentionModule } from './retention/retention.module';
import { WriterModule } from './writer/writer.module';

/** Durable, batched broker_event persistence with visible drops, replay and history queries. */
@Module({
  imports: [
    PlatformModule.forService({ service: 'event-store', defaultPort: 8083 }),
    ScheduleModule.forRoot(),
    HistoryModule,
    WriterModule,
    RetentionModule,
  ],
})
export class EventStoreModule {}
