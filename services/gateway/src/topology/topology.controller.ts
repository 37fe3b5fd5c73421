import { Controller, Get, Param } from '@nestjs/common';
import { Access } from '../access/permission';
import { ClusterRepository } from '../clusters/cluster.repository';
import { ClusterId } from '../http/validation.pipe';
import { TopologyQueries } from './topology.queries';

/** Each node's role, reachability, version and health, as last observed. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class TopologyController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly topology: TopologyQueries,
  ) {}

  @Get('topology')
  async get(@Param('id', ClusterId) id: string) {
    return this.topology.of(await this.clusters.known(id));
  }
}
