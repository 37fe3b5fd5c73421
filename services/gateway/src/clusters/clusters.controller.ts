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
import { Access } from '../access/permission';
import { roleOfPrincipal, type Principal } from '../access/principal';
import { CurrentPrincipal } from '../access/request-context';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { ClusterId, Valid } from '../http/validation.pipe';
import { ClusterRegistry } from './cluster-registry';

@Controller('api/v1/clusters')
export class ClustersController {
  constructor(
    private readonly registry: ClusterRegistry,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Post()
  @Access.cluster('admin', 'body-name')
  @Audited('cluster.create')
  async create(
    @Body(new Valid(CreateClusterRequestSchema, 'cluster registration')) body: CreateClusterRequest,
    @AuditRecord() note: AuditNote,
  ) {
    const cluster = await this.registry.create(body, note);
    this.announce(cluster.id, 'registered');
    return cluster;
  }

  /** The clusters the principal holds a role on; the others are not mentioned. */
  @Get()
  @Access.signedIn()
  async list(@CurrentPrincipal() principal: Principal) {
    return (await this.registry.list()).filter((c) => roleOfPrincipal(principal, c.name) !== null);
  }

  @Get(':id')
  @Access.cluster('viewer')
  detail(@Param('id', ClusterId) id: string) {
    return this.registry.detail(id);
  }

  @Patch(':id')
  @Access.cluster('admin')
  @Audited('cluster.update')
  async update(
    @Param('id', ClusterId) id: string,
    @Body(new Valid(UpdateClusterRequestSchema, 'cluster update')) body: UpdateClusterRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: id });
    const cluster = await this.registry.update(id, body, note);
    this.announce(id, 'changed');
    return cluster;
  }

  @Delete(':id')
  @HttpCode(204)
  @Access.cluster('admin')
  @Audited('cluster.delete')
  async remove(@Param('id', ClusterId) id: string, @AuditRecord() note: AuditNote) {
    note.describe({ clusterId: id });
    await this.registry.delete(id, note);
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
