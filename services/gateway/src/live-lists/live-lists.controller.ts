import {
  LiveListQuerySchema,
  ownerRpcs,
  type LiveListKind,
  type LiveListQuery,
} from '@artemis-studio/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { Describe, liveList } from '../openapi/operation';

/** Consumers, sessions and connections, read live from the brokers by the cluster's scraper. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class LiveListsController {
  constructor(private readonly owner: OwnerClient) {}

  @Get('consumers')
  @Describe(liveList('consumers'))
  consumers(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(LiveListQuerySchema, 'list query')) query: LiveListQuery,
  ) {
    return this.read(cluster.id, 'consumers', query);
  }

  @Get('sessions')
  @Describe(liveList('sessions'))
  sessions(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(LiveListQuerySchema, 'list query')) query: LiveListQuery,
  ) {
    return this.read(cluster.id, 'sessions', query);
  }

  @Get('connections')
  @Describe(liveList('connections'))
  connections(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(LiveListQuerySchema, 'list query')) query: LiveListQuery,
  ) {
    return this.read(cluster.id, 'connections', query);
  }

  private read(clusterId: string, kind: LiveListKind, { page, pageSize }: LiveListQuery) {
    return this.owner.ask(ownerRpcs.liveList, { clusterId, kind, page, pageSize }, `live ${kind}`);
  }
}
