import { Bus } from '@artemis-studio/bus';
import {
  CreateClusterRequestSchema,
  UpdateClusterRequestSchema,
  channels,
  subjects,
  type ClusterChange,
} from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { parseClusterId, parseInput } from '../http/api-error';
import { GatewayData } from '../gateway-data.service';

@Controller('api/v1/clusters')
export class ClustersController {
  constructor(
    private readonly data: GatewayData,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Post()
  async create(@Body() body: unknown) {
    const cluster = await (
      await this.data.registry()
    ).create(parseInput(CreateClusterRequestSchema, body, 'cluster registration'));
    this.announce(cluster.id, 'registered');
    return cluster;
  }

  @Get()
  async list() {
    return (await this.data.registry()).list();
  }

  @Get(':id')
  async detail(@Param('id') id: string) {
    return (await this.data.registry()).detail(parseClusterId(id));
  }

  @Patch(':id')
  async update(@Param('id') id: string, @Body() body: unknown) {
    const clusterId = parseClusterId(id);
    const cluster = await (
      await this.data.registry()
    ).update(clusterId, parseInput(UpdateClusterRequestSchema, body, 'cluster update'));
    this.announce(clusterId, 'changed');
    return cluster;
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string) {
    const clusterId = parseClusterId(id);
    await (await this.data.registry()).delete(clusterId);
    this.announce(clusterId, 'removed');
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
