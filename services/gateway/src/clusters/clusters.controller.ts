import { Bus } from '@artemis-studio/bus';
import {
  CreateClusterRequestSchema,
  UpdateClusterRequestSchema,
  channels,
  subjects,
  type ClusterChange,
  type CreateClusterRequest,
  type UpdateClusterRequest,
} from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ClusterId, Valid } from '../http/validation.pipe';
import { ClusterRegistry } from './cluster-registry';

@Controller('api/v1/clusters')
export class ClustersController {
  constructor(
    private readonly registry: ClusterRegistry,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Post()
  async create(
    @Body(new Valid(CreateClusterRequestSchema, 'cluster registration')) body: CreateClusterRequest,
  ) {
    const cluster = await this.registry.create(body);
    this.announce(cluster.id, 'registered');
    return cluster;
  }

  @Get()
  list() {
    return this.registry.list();
  }

  @Get(':id')
  detail(@Param('id', ClusterId) id: string) {
    return this.registry.detail(id);
  }

  @Patch(':id')
  async update(
    @Param('id', ClusterId) id: string,
    @Body(new Valid(UpdateClusterRequestSchema, 'cluster update')) body: UpdateClusterRequest,
  ) {
    const cluster = await this.registry.update(id, body);
    this.announce(id, 'changed');
    return cluster;
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', ClusterId) id: string) {
    await this.registry.delete(id);
    this.announce(id, 'removed');
  }

  /**
   * Tells every gateway replica (and any tool on the bus) at once; a replica that misses it still
   * ends a removed cluster's streams at its next heartbeat, which checks the registry.
   */
  private announce(clusterId: string, change: ClusterChange['change']): void {
    this.bus.publish(channels.clusterChange, subjects.clusterChange(clusterId), {
      clusterId,
      change,
      ts: new Date().toISOString(),
    });
  }
}
