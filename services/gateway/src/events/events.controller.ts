import { Bus, RpcError } from '@artemis-studio/bus';
import { EventsQuerySchema, rpcs, type EventsQuery } from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';
import { ClusterId, Valid } from '../http/validation.pipe';

/** A cluster's broker-event history, read from the event store over the bus. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class EventsController {
  constructor(
    private readonly clusters: ClusterRepository,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Get('events')
  async history(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(EventsQuerySchema, 'events query')) query: EventsQuery,
  ) {
    const clusterId = await this.clusters.known(id);
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
}
