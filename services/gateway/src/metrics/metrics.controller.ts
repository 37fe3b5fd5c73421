import {
  MetricsQuerySchema,
  QueueGrowthQuerySchema,
  type MetricsQuery,
  type QueueGrowthQuery,
} from '@artemis-studio/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';
import { ClusterId, Valid } from '../http/validation.pipe';
import { MetricQueries } from './metric-queries';
import { resolveMetricRange, type MetricRange } from './metric-range';

/** A cluster's figures over time (metric_sample, node_sample, address_sample), per node and in total, downsampled. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class MetricsController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly metrics: MetricQueries,
  ) {}

  /** The cluster's depth, rates, consumers and connections over time, per node and in total, downsampled. */
  @Get('metrics')
  async cluster(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(MetricsQuerySchema, 'metrics query')) query: MetricsQuery,
  ) {
    return this.metrics.series(await this.clusters.known(id), null, metricRange(query));
  }

  /** The queues filling fastest: depth now against the start of the window. */
  @Get('queues/growth')
  async growth(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(QueueGrowthQuerySchema, 'growth query')) { window, limit }: QueueGrowthQuery,
  ) {
    return this.metrics.fastestGrowing(await this.clusters.known(id), window, limit);
  }

  /** One queue's depth, rates and consumers over time, per node and in total, downsampled. */
  @Get('queues/:queue/metrics')
  async queue(
    @Param('id', ClusterId) id: string,
    @Param('queue') queue: string,
    @Query(new Valid(MetricsQuerySchema, 'metrics query')) query: MetricsQuery,
  ) {
    const clusterId = await this.clusters.known(id);
    const range = metricRange(query);
    if (!(await this.metrics.queueKnown(clusterId, queue)))
      throw new DomainError(
        'not-found',
        'QUEUE_NOT_FOUND',
        `cluster ${clusterId} has no queue '${queue.slice(0, 200)}'`,
      );
    return this.metrics.series(clusterId, queue, range);
  }

  /** One address's size, pages, limit percentage and paging over time, per node and in total. */
  @Get('addresses/:address/metrics')
  async address(
    @Param('id', ClusterId) id: string,
    @Param('address') address: string,
    @Query(new Valid(MetricsQuerySchema, 'metrics query')) query: MetricsQuery,
  ) {
    const clusterId = await this.clusters.known(id);
    const range = metricRange(query);
    if (!(await this.metrics.addressKnown(clusterId, address)))
      throw new DomainError(
        'not-found',
        'ADDRESS_NOT_FOUND',
        `cluster ${clusterId} has no address '${address.slice(0, 200)}'`,
      );
    return this.metrics.addressSeries(clusterId, address, range);
  }
}

function metricRange(query: MetricsQuery): MetricRange {
  const range = resolveMetricRange(query, new Date());
  if (typeof range === 'string') throw new DomainError('invalid', 'INVALID_RANGE', range);
  return range;
}
