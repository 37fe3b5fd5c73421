import { Bus, RpcError } from '@artemis-studio/bus';
import {
  EventsQuerySchema,
  LIVE_LIST_KINDS,
  LiveListQuerySchema,
  MetricsQuerySchema,
  QueueGrowthQuerySchema,
  QueueQuerySchema,
  rpcs,
  type EventsQuery,
  type LiveListKind,
  type MetricsQuery,
  type QueueGrowthQuery,
  type QueueQuery,
} from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { ClusterRegistry } from '../clusters/cluster-registry';
import { DomainError } from '../domain-error';
import { ClusterId, Valid } from '../http/validation.pipe';
import { MetricQueries } from './metric-queries';
import { resolveMetricRange, type MetricRange } from './metric-range';
import { StateQueries } from './state-queries';

/** A cluster's state: persisted (topology, queues), live (through its scraper owner), history (event store). */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class StateController {
  constructor(
    private readonly registry: ClusterRegistry,
    private readonly state: StateQueries,
    private readonly metrics: MetricQueries,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Get('topology')
  async topology(@Param('id', ClusterId) id: string) {
    return this.state.topology(await this.registry.known(id));
  }

  @Get('queues')
  async queues(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(QueueQuerySchema, 'queue query')) query: QueueQuery,
  ) {
    return this.state.queues(await this.registry.known(id), query);
  }

  @Get('events')
  async events(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(EventsQuerySchema, 'events query')) query: EventsQuery,
  ) {
    const clusterId = await this.registry.known(id);
    try {
      return await this.bus.request(rpcs.eventsHistory, { clusterId, query });
    } catch (err) {
      if (err instanceof RpcError && err.code >= 500)
        throw new DomainError(
          'unavailable',
          'EVENT_STORE_UNAVAILABLE',
          `event history unavailable: ${err.message}`,
        );
      throw err;
    }
  }

  /** The cluster's depth, rates, consumers and connections over time, per node and in total, downsampled. */
  @Get('metrics')
  async clusterMetrics(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(MetricsQuerySchema, 'metrics query')) query: MetricsQuery,
  ) {
    return this.metrics.series(await this.registry.known(id), null, metricRange(query));
  }

  /** The queues filling fastest: depth now against the start of the window. */
  @Get('queues/growth')
  async growth(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(QueueGrowthQuerySchema, 'growth query')) { window, limit }: QueueGrowthQuery,
  ) {
    return this.metrics.fastestGrowing(await this.registry.known(id), window, limit);
  }

  /** One queue's depth, rates and consumers over time, per node and in total, downsampled. */
  @Get('queues/:queue/metrics')
  async queueMetrics(
    @Param('id', ClusterId) id: string,
    @Param('queue') queue: string,
    @Query(new Valid(MetricsQuerySchema, 'metrics query')) query: MetricsQuery,
  ) {
    const clusterId = await this.registry.known(id);
    const range = metricRange(query);
    if (!(await this.metrics.queueKnown(clusterId, queue)))
      throw new DomainError(
        'not-found',
        'QUEUE_NOT_FOUND',
        `cluster ${clusterId} has no queue '${queue.slice(0, 200)}'`,
      );
    return this.metrics.series(clusterId, queue, range);
  }

  // Declared last: ':kind' would otherwise take 'events' and the other fixed paths.
  @Get(':kind')
  async live(
    @Param('id', ClusterId) id: string,
    @Param('kind') kind: string,
    @Query(new Valid(LiveListQuerySchema, 'list query'))
    { page, pageSize }: { page: number; pageSize: number },
  ) {
    const clusterId = await this.registry.known(id);
    if (!(LIVE_LIST_KINDS as readonly string[]).includes(kind))
      throw new DomainError('not-found', 'NOT_FOUND', `no list ${kind}`);
    try {
      return await this.bus.request(
        rpcs.liveList,
        { clusterId, kind: kind as LiveListKind, page, pageSize },
        { key: clusterId, timeoutMs: 10_000 },
      );
    } catch (err) {
      if (err instanceof RpcError && err.code === 503) {
        throw new DomainError(
          'unavailable',
          'SCRAPER_UNAVAILABLE',
          `no scraper owns cluster ${clusterId} right now; live ${kind} cannot be read`,
        );
      }
      throw err;
    }
  }
}

function metricRange(query: MetricsQuery): MetricRange {
  const range = resolveMetricRange(query, new Date());
  if (typeof range === 'string') throw new DomainError('invalid', 'INVALID_RANGE', range);
  return range;
}
