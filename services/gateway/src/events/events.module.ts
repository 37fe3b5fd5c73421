import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';

/** Broker-event history (the live events are the stream's). */
@Module({
  controllers: [EventsController],
})
export class EventsModule {}
