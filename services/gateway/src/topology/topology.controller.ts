import { TopologySchema } from '@artemis-studio/contracts';
import { Controller, Get } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { TopologyQueries } from './topology.queries';
import { Describe } from '../openapi/operation';

/** Each node's role, reachability, version and health, as last observed. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class TopologyController {
  constructor(private readonly topology: TopologyQueries) {}

  @Get('topology')
  @Describe({
    summary: 'Nodes, HA roles, health',
    tag: 'state',
    status: 200,
    response: TopologySchema,
  })
  async get(@Cluster() cluster: RegisteredCluster) {
    return this.topology.of(cluster.id);
  }
}
