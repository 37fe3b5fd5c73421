import { Bus, RpcError } from '@artemis-studio/bus';
import {
  EventsQuerySchema,
  LIVE_LIST_KINDS,
  LiveListQuerySchema,
  MetricsQuerySchema,
  QueueGrowthQuerySchema,
  QueueQuerySchema,
  rpcs,
  type LiveListKind,
} from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiError, clusterNotFound, parseClusterId, parseInput } from '../http/api-error';
import { GatewayData } from '../gateway-data.service';
import { resolveMetricRange, type MetricRange } from './metric-range';

/** A cluster's state: persisted (topology, queues), live (through its scraper owner), history (event store). */
@Controller('api/v1/clusters/:id')
export class StateController {
  constructor(
    private readonly data: GatewayData,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Get('topology')
  async topology(@Param('id') id: string) {
    return (await this.data.state()).topology(await this.known(id));
  }

  @Get('queues')
  async queues(@Param('id') id: string, @Query() query: unknown) {
    const clusterId = await this.known(id);
    return (await this.data.state()).queues(clusterId, parseInput(QueueQuerySchema, query, 'queue query'));
  }

  @Get('events')
  async events(@Param('id') id: string, @Query() query: unknown) {
    const clusterId = await this.known(id);
    const parsed = parseInput(EventsQuerySchema, query, 'events query');
    try {
      return await this.bus.request(rpcs.eventsHistory, { clusterId, query: parsed });
    } catch (err) {
      if (err instanceof RpcError && err.code >= 500)
        throw new ApiError(503, 'EVENT_STORE_UNAVAILABLE', `event history unavailable: ${err.message}`);
      throw err;
    }
  }

  /** The cluster's depth, rates and consumers over time, per node and in total, downsampled. */
  @Get('metrics')
  async clusterMetrics(@Param('id') id: string, @Query() query: unknown) {
    const clusterId = await this.known(id);
    return (await this.data.metrics()).series(clusterId, null, metricRange(query));
  }

  /** The queues filling fastest: depth now against the start of the window. */
  @Get('queues/growth')
  async growth(@Param('id') id: string, @Query() query: unknown) {
    const clusterId = await this.known(id);
    const { window, limit } = parseInput(QueueGrowthQuerySchema, query, 'growth query');
    return (await this.data.metrics()).fastestGrowing(clusterId, window, limit);
  }

  /** One queue's depth, rates and consumers over time, per node and in total, downsampled. */
  @Get('queues/:queue/metrics')
  async queueMetrics(@Param('id') id: string, @Param('queue') queue: string, @Query() query: unknown) {
    const clusterId = await this.known(id);
    const range = metricRange(query);
    const metrics = await this.data.metrics();
    if (!(await metrics.queueKnown(clusterId, queue)))
      throw new ApiError(
        404,
        'QUEUE_NOT_FOUND',
        `cluster ${clusterId} has no queue '${queue.slice(0, 200)}'`,
      );
    return metrics.series(clusterId, queue, range);
  }

  // Declared last: ':kind' would otherwise take 'events' and the other fixed paths.
  @Get(':kind')
  async live(@Param('id') id: string, @Param('kind') kind: string, @Query() query: unknown) {
    const clusterId = await this.known(id);
    const { page, pageSize } = parseInput(LiveListQuerySchema, query, `${kind} query`);
    if (!(LIVE_LIST_KINDS as readonly string[]).includes(kind))
      throw new ApiError(404, 'NOT_FOUND', `no list ${kind}`);
    try {
      return await this.bus.request(
        rpcs.liveList,
        { clusterId, kind: kind as LiveListKind, page, pageSize },
        { key: clusterId, timeoutMs: 10_000 },
      );
    } catch (err) {
      if (err instanceof RpcError && err.code === 503) {
        throw new ApiError(
          503,
          'SCRAPER_UNAVAILABLE',
          `no scraper owns cluster ${clusterId} right now; live ${kind} cannot be read`,
        );
      }
      throw err;
    }
  }

  private async known(id: string): Promise<string> {
    const clusterId = parseClusterId(id);
    if (!(await (await this.data.registry()).exists(clusterId))) throw clusterNotFound(clusterId);
    return clusterId;
  }
}

function metricRange(query: unknown): MetricRange {
  const range = resolveMetricRange(parseInput(MetricsQuerySchema, query, 'metrics query'), new Date());
  if (typeof range === 'string') throw new ApiError(400, 'INVALID_RANGE', range);
  return range;
}
