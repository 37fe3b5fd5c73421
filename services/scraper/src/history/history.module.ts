import { Module } from '@nestjs/common';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import { QueueSnapshotRepository } from '../queues/queue-snapshot.repository';
import { NodeStateRepository } from '../topology/node-state.repository';
import { HistoryKeeperService } from './history-keeper.service';

/** What the scraper persists: node state, queue snapshots, their samples and address samples, and their reaping. */
@Module({
  providers: [QueueSnapshotRepository, NodeStateRepository, AddressSampleRepository, HistoryKeeperService],
  exports: [QueueSnapshotRepository, NodeStateRepository, AddressSampleRepository],
})
export class HistoryModule {}
