import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { EventsController } from './events.controller';

/** Broker-event history (the live events are the stream's). */
@Module({
  imports: [ClustersModule],
  controllers: [EventsController],
})
export class EventsModule {}
