import { Module } from '@nestjs/common';
import { NodeStateRepository } from '../topology/node-state.repository';
import { QueueSnapshotRepository } from './queue-snapshot.repository';
import { SampleReaperService } from './sample-reaper.service';

/** What the scraper persists: node state and queue snapshots, their samples, and their reaping. */
@Module({
  providers: [QueueSnapshotRepository, NodeStateRepository, SampleReaperService],
  exports: [QueueSnapshotRepository, NodeStateRepository],
})
export class QueuesModule {}
