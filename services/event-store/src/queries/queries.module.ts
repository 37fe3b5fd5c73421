import { Module } from '@nestjs/common';
import { EventQueries } from './event-queries';
import { EventQueriesService } from './event-queries.service';

/** The history, replay and drop counts, read by every replica and served on the bus. */
@Module({
  providers: [EventQueries, EventQueriesService],
  exports: [EventQueries, EventQueriesService],
})
export class QueriesModule {}
