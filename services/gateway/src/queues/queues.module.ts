import { Module } from '@nestjs/common';
import { ClusterQueueQueries } from './cluster-queue.queries';
import { QueueSnapshotQueries } from './queue-snapshot.queries';
import { QueuesController } from './queues.controller';

/** A cluster's queues, read from what the scraper persisted. */
@Module({
  controllers: [QueuesController],
  providers: [QueueSnapshotQueries, ClusterQueueQueries],
})
export class QueuesModule {}
