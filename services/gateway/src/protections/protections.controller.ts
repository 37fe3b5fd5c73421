import {
  CreateProtectionRequestSchema,
  ProtectionListSchema,
  ProtectionSchema,
  type CreateProtectionRequest,
  type Protection,
  type ProtectionList,
} from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import type { Principal } from '../access/principal';
import { CurrentPrincipal } from '../access/request-context';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Id, Valid } from '../http/validation.pipe';
import { Describe } from '../openapi/operation';
import { ProtectionsRepository } from './protections.repository';

/** A cluster's protected queues and addresses: seen by everyone on it, set and lifted by its administrators. */
@Controller('api/v1/clusters/:id/protections')
export class ProtectionsController {
  constructor(private readonly protections: ProtectionsRepository) {}

  @Get()
  @Describe({
    summary: "The cluster's protected queue and address patterns, and the suggested ones it lacks",
    tag: 'clusters',
    status: 200,
    response: ProtectionListSchema,
  })
  @Access.cluster('viewer')
  list(@Cluster() cluster: RegisteredCluster): Promise<ProtectionList> {
    return this.protections.list(cluster.id);
  }

  @Post()
  @Describe({
    summary: 'Protect the queues and addresses a pattern names (admin)',
    tag: 'clusters',
    body: CreateProtectionRequestSchema,
    status: 201,
    response: ProtectionSchema,
  })
  @Access.cluster('admin')
  @Audited('protection.create')
  create(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(CreateProtectionRequestSchema, 'protection')) request: CreateProtectionRequest,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ): Promise<Protection> {
    note.describe({ clusterId: cluster.id });
    return this.protections.create(cluster.id, request, principal.name, note);
  }

  @Delete(':protectionId')
  @Describe({
    summary: 'Lift a protection (admin)',
    tag: 'clusters',
    status: 200,
    response: ProtectionSchema,
  })
  @Access.cluster('admin')
  @Audited('protection.delete')
  lift(
    @Cluster() cluster: RegisteredCluster,
    @Param('protectionId', Id) id: string,
    @AuditRecord() note: AuditNote,
  ): Promise<Protection> {
    note.describe({ clusterId: cluster.id });
    return this.protections.lift(cluster.id, id, note);
  }
}
