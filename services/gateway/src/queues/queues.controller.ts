import { QueueQuerySchema, type QueueQuery } from '@artemis-studio/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { ClusterRepository } from '../clusters/cluster.repository';
import { ClusterId, Valid } from '../http/validation.pipe';
import { QueueSnapshotQueries } from './queue-snapshot.queries';

/** A cluster's queues as last observed, with their rates: filtered, sorted, paged. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class QueuesController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly snapshots: QueueSnapshotQueries,
  ) {}

  @Get('queues')
  async page(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(QueueQuerySchema, 'queue query')) query: QueueQuery,
  ) {
    return this.snapshots.page(await this.clusters.known(id), query);
  }
}
