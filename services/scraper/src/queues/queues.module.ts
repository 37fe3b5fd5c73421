import { Module } from '@nestjs/common';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import { NodeStateRepository } from '../topology/node-state.repository';
import { QueueSnapshotRepository } from './queue-snapshot.repository';
import { SampleReaperService } from './sample-reaper.service';

/** What the scraper persists: node state, queue snapshots, their samples and address samples, and their reaping. */
@Module({
  providers: [QueueSnapshotRepository, NodeStateRepository, AddressSampleRepository, SampleReaperService],
  exports: [QueueSnapshotRepository, NodeStateRepository, AddressSampleRepository],
})
export class QueuesModule {}
