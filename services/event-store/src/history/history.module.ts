import { Module } from '@nestjs/common';
import { BrokerEventRepository } from './broker-event.repository';
import { HistoryService } from './history.service';

/** The history, replay and drop counts, read by every replica and served on the bus. */
@Module({
  providers: [BrokerEventRepository, HistoryService],
  exports: [BrokerEventRepository, HistoryService],
})
export class HistoryModule {}
