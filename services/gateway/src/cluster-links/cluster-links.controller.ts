import { ClusterLinksSchema } from '@artemis-studio/contracts';
import { Controller, Get } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { Describe } from '../openapi/operation';
import { ClusterLinksQueries } from './cluster-links.queries';

/** The cluster as its brokers see it: cluster connections, members, and the messages left stranded. */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class ClusterLinksController {
  constructor(private readonly links: ClusterLinksQueries) {}

  @Get('cluster-links')
  @Describe({
    summary:
      'Cluster connections and their members beside the registered nodes, connections that balance nothing (max-hops 0), and messages stranded on a node without consumers, with why',
    tag: 'state',
    status: 200,
    response: ClusterLinksSchema,
  })
  async get(@Cluster() cluster: RegisteredCluster) {
    return this.links.of(cluster.id);
  }
}
