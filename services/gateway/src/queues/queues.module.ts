import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { QueueSnapshotQueries } from './queue-snapshot.queries';
import { QueuesController } from './queues.controller';

/** A cluster's queues, read from what the scraper persisted. */
@Module({
  imports: [ClustersModule],
  controllers: [QueuesController],
  providers: [QueueSnapshotQueries],
})
export class QueuesModule {}
