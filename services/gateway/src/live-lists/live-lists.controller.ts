import {
  LiveListQuerySchema,
  ownerRpcs,
  type LiveListKind,
  type LiveListQuery,
} from '@artemis-studio/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { ClusterRepository } from '../clusters/cluster.repository';
import { ClusterId, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';

/** Consumers, sessions and connections, read live from the brokers by the cluster's scraper. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class LiveListsController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly owner: OwnerClient,
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
    return this.owner.ask(ownerRpcs.liveList, { clusterId, kind, page, pageSize }, `live ${kind}`);
  }
}
