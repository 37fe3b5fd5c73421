import { Bus, RpcError } from '@artemis-studio/bus';
import { LiveListQuerySchema, rpcs, type LiveListKind, type LiveListQuery } from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';
import { ClusterId, Valid } from '../http/validation.pipe';

/** Consumers, sessions and connections, read live from the brokers by the cluster's scraper. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class LiveListsController {
  constructor(
    private readonly clusters: ClusterRepository,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Get('consumers')
  consumers(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(LiveListQuerySchema, 'list query')) query: LiveListQuery,
  ) {
    return this.read(id, 'consumers', query);
  }

  @Get('sessions')
  sessions(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(LiveListQuerySchema, 'list query')) query: LiveListQuery,
  ) {
    return this.read(id, 'sessions', query);
  }

  @Get('connections')
  connections(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(LiveListQuerySchema, 'list query')) query: LiveListQuery,
  ) {
    return this.read(id, 'connections', query);
  }

  private async read(id: string, kind: LiveListKind, { page, pageSize }: LiveListQuery) {
    const clusterId = await this.clusters.known(id);
    try {
      return await this.bus.request(
        rpcs.liveList,
        { clusterId, kind, page, pageSize },
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
