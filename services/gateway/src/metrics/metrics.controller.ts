import {
  MetricsQuerySchema,
  QueueGrowthQuerySchema,
  type MetricsQuery,
  type QueueGrowthQuery,
  AddressMetricsResponseSchema,
  MetricsResponseSchema,
  QueueGrowthResponseSchema,
  QueueBaselineResponseSchema,
} from '@artemis-studio/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { DomainError } from '../domain-error';
import { Valid } from '../http/validation.pipe';
import { AddressMetricQueries } from './address-metric.queries';
import { MetricQueries } from './metric-queries';
import { QueueGrowthQueries } from './queue-growth.queries';
import { QueueBaselineQueries } from './queue-baseline.queries';
import { resolveMetricRange, type MetricRange } from './metric-range';
import { Describe } from '../openapi/operation';

/** A cluster's figures over time (metric_sample, node_sample, address_sample), per node and in total, downsampled. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class MetricsController {
  constructor(
    private readonly metrics: MetricQueries,
    private readonly addresses: AddressMetricQueries,
    private readonly growthOf: QueueGrowthQueries,
    private readonly baselines: QueueBaselineQueries,
  ) {}

  /** The cluster's depth, rates, consumers and connections over time, per node and in total, downsampled. */
  @Get('metrics')
  @Describe({
    summary: "The cluster's series over time, per node and in total",
    tag: 'state',
    query: MetricsQuerySchema,
    status: 200,
    response: MetricsResponseSchema,
  })
  async cluster(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(MetricsQuerySchema, 'metrics query')) query: MetricsQuery,
  ) {
    return this.metrics.series(cluster.id, null, metricRange(query));
  }

  /** The queues filling fastest: depth now against the start of the window. */
  @Get('queues/growth')
  @Describe({
    summary: 'The queues filling fastest',
    tag: 'state',
    query: QueueGrowthQuerySchema,
    status: 200,
    response: QueueGrowthResponseSchema,
  })
  async growth(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(QueueGrowthQuerySchema, 'growth query')) { window, limit }: QueueGrowthQuery,
  ) {
    return this.growthOf.fastestGrowing(cluster.id, window, limit);
  }

  /** One queue's depth, rates and consumers over time, per node and in total, downsampled. */
  @Get('queues/:queue/metrics')
  @Describe({
    summary: "One queue's series over time",
    tag: 'state',
    query: MetricsQuerySchema,
    status: 200,
    response: MetricsResponseSchema,
  })
  async queue(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue') queue: string,
    @Query(new Valid(MetricsQuerySchema, 'metrics query')) query: MetricsQuery,
  ) {
    const range = metricRange(query);
    await this.mustBeKnown('queue', cluster.id, queue);
    return this.metrics.series(cluster.id, queue, range);
  }

  /** The queue's usual depth at each hour of the range, for its depth chart (ADR-0039). */
  @Get('queues/:queue/baseline')
  @Describe({
    summary: "One queue's usual depth for each hour of the week, learned from its past weeks",
    tag: 'state',
    query: MetricsQuerySchema,
    status: 200,
    response: QueueBaselineResponseSchema,
  })
  async baseline(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue') queue: string,
    @Query(new Valid(MetricsQuerySchema, 'baseline query')) query: MetricsQuery,
  ) {
    const range = metricRange(query);
    await this.mustBeKnown('queue', cluster.id, queue);
    return this.baselines.bands(cluster.id, queue, range);
  }

  /** One address's size, pages, limit percentage and paging over time, per node and in total. */
  @Get('addresses/:address/metrics')
  @Describe({
    summary: "One address's size, pages, limit percentage and paging over time",
    tag: 'state',
    query: MetricsQuerySchema,
    status: 200,
    response: AddressMetricsResponseSchema,
  })
  async address(
    @Cluster() cluster: RegisteredCluster,
    @Param('address') address: string,
    @Query(new Valid(MetricsQuerySchema, 'metrics query')) query: MetricsQuery,
  ) {
    const range = metricRange(query);
    await this.mustBeKnown('address', cluster.id, address);
    return this.addresses.addressSeries(cluster.id, address, range);
  }

  /** A queue or an address the cluster has, or had within the samples kept: else a 404. */
  private async mustBeKnown(kind: 'queue' | 'address', clusterId: string, name: string): Promise<void> {
    if (!(await this.metrics.known(kind, clusterId, name)))
      throw new DomainError(
        'not-found',
        `${kind.toUpperCase()}_NOT_FOUND`,
        `cluster ${clusterId} has no ${kind} '${name.slice(0, 200)}'`,
      );
  }
}

function metricRange(query: MetricsQuery): MetricRange {
  const range = resolveMetricRange(query, new Date());
  if (typeof range === 'string') throw new DomainError('invalid', 'INVALID_RANGE', range);
  return range;
}
