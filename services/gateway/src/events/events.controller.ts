import { Bus, RpcError } from '@artemis-studio/bus';
import { EventsQuerySchema, rpcs, type EventsQuery, EventsPageSchema } from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Controller, Get, Inject, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { DomainError } from '../domain-error';
import { Valid } from '../http/validation.pipe';
import { Describe } from '../openapi/operation';

/** A cluster's broker-event history, read from the event store over the bus. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class EventsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get('events')
  @Describe({
    summary: 'Broker event history, newest first, with drops',
    tag: 'state',
    query: EventsQuerySchema,
    status: 200,
    response: EventsPageSchema,
  })
  async history(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(EventsQuerySchema, 'events query')) query: EventsQuery,
  ) {
    const clusterId = cluster.id;
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
