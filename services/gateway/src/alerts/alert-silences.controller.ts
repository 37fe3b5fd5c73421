import {
  CreateSilenceRequestSchema,
  type CreateSilenceRequest,
  type SilenceList,
  SilenceListSchema,
  SilenceSchema,
} from '@artemis-studio/contracts';
import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import type { Principal } from '../access/principal';
import { CurrentPrincipal } from '../access/request-context';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Valid, Id } from '../http/validation.pipe';
import { AlertSilencesRepository } from './alert-silences.repository';
import { Describe } from '../openapi/operation';

/** Silences: the on-call operator's, who mutes what is known while it is fixed. */
@Controller('api/v1/clusters/:id')
export class AlertSilencesController {
  constructor(private readonly silences: AlertSilencesRepository) {}

  @Get('alert-silences')
  @Describe({
    summary: 'Silences in force, and those ended within the last day',
    tag: 'alerts',
    status: 200,
    response: SilenceListSchema,
  })
  @Access.cluster('viewer')
  async list(@Cluster() cluster: RegisteredCluster): Promise<SilenceList> {
    return { items: await this.silences.list(cluster.id) };
  }

  /** Mutes matching alerts until its end: still evaluated and listed, not notified. */
  @Post('alert-silences')
  @Describe({
    summary: 'Mute matching alerts until a time, with a reason (still evaluated and listed, not notified)',
    tag: 'alerts',
    body: CreateSilenceRequestSchema,
    status: 201,
    response: SilenceSchema,
  })
  @Access.cluster('operator')
  @Audited('alert-silence.create')
  async create(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(CreateSilenceRequestSchema, 'silence')) body: CreateSilenceRequest,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: cluster.id });
    return this.silences.create(cluster.id, body, principal.name, note);
  }

  @Post('alert-silences/:silenceId/end')
  @Describe({
    summary: 'End a silence before its time',
    tag: 'alerts',
    status: 201,
    response: SilenceSchema,
  })
  @Access.cluster('operator')
  @Audited('alert-silence.end')
  async end(
    @Cluster() cluster: RegisteredCluster,
    @Param('silenceId', Id) silenceId: string,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: cluster.id, target: silenceId });
    return this.silences.end(cluster.id, silenceId, note);
  }
}
