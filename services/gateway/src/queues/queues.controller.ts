import {
  ClusterQueuePageSchema,
  QueueQuerySchema,
  type QueueQuery,
  QueuePageSchema,
} from '@artemis-studio/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { Valid } from '../http/validation.pipe';
import { ClusterQueueQueries } from './cluster-queue.queries';
import { QueueSnapshotQueries } from './queue-snapshot.queries';
import { Describe } from '../openapi/operation';

/** A cluster's queues as last observed, with their rates: filtered, sorted, paged. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class QueuesController {
  constructor(
    private readonly snapshots: QueueSnapshotQueries,
    private readonly acrossNodes: ClusterQueueQueries,
  ) {}

  @Get('queues')
  @Describe({
    summary: 'Queues with their depth and rates, paged and sortable',
    tag: 'state',
    query: QueueQuerySchema,
    status: 200,
    response: QueuePageSchema,
  })
  async page(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(QueueQuerySchema, 'queue query')) query: QueueQuery,
  ) {
    return this.snapshots.page(cluster.id, query);
  }

  @Get('queues/across-nodes')
  @Describe({
    summary:
      'Each queue once for the cluster: summed over its nodes, each node beside it, and where its messages are stranded',
    tag: 'state',
    query: QueueQuerySchema,
    status: 200,
    response: ClusterQueuePageSchema,
  })
  async acrossTheCluster(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(QueueQuerySchema, 'queue query')) query: QueueQuery,
  ) {
    return this.acrossNodes.page(cluster.id, query);
  }
}
