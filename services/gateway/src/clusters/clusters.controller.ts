import { z } from 'zod';
import { Bus } from '@artemis-studio/bus';
import {
  CreateClusterRequestSchema,
  UpdateClusterRequestSchema,
  buckets,
  channels,
  subjects,
  type ClusterChange,
  type ClusterDetail,
  leaseKey,
  type CreateClusterRequest,
  type UpdateClusterRequest,
  ClusterDetailSchema,
  ClusterSummarySchema,
} from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Body, Controller, Delete, Get, HttpCode, Inject, Patch, Post } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { roleOfPrincipal, type Principal } from '../access/principal';
import { CurrentPrincipal } from '../access/request-context';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Valid } from '../http/validation.pipe';
import { clusterNotFound } from '../domain-error';
import { ClusterRepository } from './cluster.repository';
import { Describe } from '../openapi/operation';

@Controller('api/v1/clusters')
export class ClustersController {
  constructor(
    private readonly clusters: ClusterRepository,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Post()
  @Describe({
    summary: 'Register a cluster',
    tag: 'clusters',
    body: CreateClusterRequestSchema,
    status: 201,
    response: ClusterSummarySchema,
  })
  @Access.cluster('admin', 'body-name')
  @Audited('cluster.create')
  async create(
    @Body(new Valid(CreateClusterRequestSchema, 'cluster registration')) body: CreateClusterRequest,
    @AuditRecord() note: AuditNote,
  ) {
    const cluster = await this.clusters.create(body, note);
    this.announce(cluster.id, 'registered');
    return cluster;
  }

  /** The clusters the principal holds a role on; the others are not mentioned. */
  @Get()
  @Describe({
    summary: 'The clusters you hold a role on',
    tag: 'clusters',
    status: 200,
    response: z.array(ClusterSummarySchema),
  })
  @Access.signedIn()
  async list(@CurrentPrincipal() principal: Principal) {
    return (await this.clusters.list()).filter((c) => roleOfPrincipal(principal, c.name) !== null);
  }

  @Get(':id')
  @Describe({
    summary: 'A cluster, with its cached notification verdict',
    tag: 'clusters',
    status: 200,
    response: ClusterDetailSchema,
  })
  @Access.cluster('viewer')
  async detail(@Cluster() cluster: RegisteredCluster): Promise<ClusterDetail> {
    const summary = await this.clusters.summary(cluster.id);
    if (!summary) throw clusterNotFound(cluster.id);
    // The cached verdict, never a broker call: the notifier keeps it current.
    const verdict = (await (await this.bus.kv(buckets.capabilities)).get(cluster.id))?.value ?? {
      status: 'UNKNOWN' as const,
      reason: 'no verdict yet: the notifier has not reconciled this cluster',
      asOf: new Date().toISOString(),
    };
    return { ...summary, capabilities: { notifications: verdict }, owners: await this.owners(cluster.id) };
  }

  /** Who holds the cluster's leases now; an expired lease is no owner. */
  private async owners(id: string): Promise<ClusterDetail['owners']> {
    const leases = await this.bus.kv(buckets.leases);
    const ownerOf = async (service: 'scraper' | 'notifier') => {
      const lease = (await leases.get(leaseKey(service, id)))?.value;
      return lease && Date.parse(lease.expiresAt) > Date.now()
        ? { replica: lease.owner, since: lease.acquiredAt, until: lease.expiresAt }
        : null;
    };
    return { scraper: await ownerOf('scraper'), notifier: await ownerOf('notifier') };
  }

  @Patch(':id')
  @Describe({
    summary: "Change a cluster's registration",
    tag: 'clusters',
    body: UpdateClusterRequestSchema,
    status: 200,
    response: ClusterSummarySchema,
  })
  @Access.cluster('admin')
  @Audited('cluster.update')
  async update(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(UpdateClusterRequestSchema, 'cluster update')) body: UpdateClusterRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: cluster.id });
    const updated = await this.clusters.update(cluster.id, body, note);
    this.announce(cluster.id, 'changed');
    return updated;
  }

  @Delete(':id')
  @Describe({
    summary: 'Remove a cluster (the brokers are not touched)',
    tag: 'clusters',
    status: 204,
  })
  @HttpCode(204)
  @Access.cluster('admin')
  @Audited('cluster.delete')
  async remove(@Cluster() cluster: RegisteredCluster, @AuditRecord() note: AuditNote) {
    note.describe({ clusterId: cluster.id });
    await this.clusters.delete(cluster.id, note);
    this.announce(cluster.id, 'removed');
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
