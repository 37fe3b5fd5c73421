import {
  CreateReceiverRequestSchema,
  DeliverySchema,
  type Delivery,
  UpdateReceiverRequestSchema,
  type CreateReceiverRequest,
  type ReceiverList,
  type UpdateReceiverRequest,
  ReceiverListSchema,
  ReceiverSchema,
} from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { Valid, Id } from '../http/validation.pipe';
import { AlertReceiversRepository } from './alert-receivers.repository';
import { ReceiverTestsRepository } from './receiver-tests.repository';
import { CurrentPrincipal } from '../access/request-context';
import type { Principal } from '../access/principal';
import { Describe } from '../openapi/operation';

/**
 * Where a cluster's alerts are sent: the admin's (a receiver's URL and secret are where alerts
 * leave Studio); secrets are never returned.
 */
@Controller('api/v1/clusters/:id')
export class AlertReceiversController {
  constructor(
    private readonly receivers: AlertReceiversRepository,
    private readonly tests: ReceiverTestsRepository,
  ) {}

  @Get('alert-receivers')
  @Describe({
    summary: "Where the cluster's alerts are sent (secrets are never returned)",
    tag: 'alerts',
    status: 200,
    response: ReceiverListSchema,
  })
  @Access.cluster('admin')
  async list(@Cluster() cluster: RegisteredCluster): Promise<ReceiverList> {
    return { items: await this.receivers.list(cluster.id) };
  }

  @Post('alert-receivers')
  @Describe({
    summary: 'Add a receiver: Alertmanager, or a signed webhook',
    tag: 'alerts',
    body: CreateReceiverRequestSchema,
    status: 201,
    response: ReceiverSchema,
  })
  @Access.cluster('admin')
  @Audited('alert-receiver.create')
  async create(
    @Cluster() cluster: RegisteredCluster,
    @Body(new Valid(CreateReceiverRequestSchema, 'alert receiver')) body: CreateReceiverRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: cluster.id });
    return this.receivers.create(cluster.id, body, note);
  }

  @Put('alert-receivers/:receiverId')
  @Describe({
    summary: 'Change a receiver (a secret left out keeps the sealed one)',
    tag: 'alerts',
    body: UpdateReceiverRequestSchema,
    status: 200,
    response: ReceiverSchema,
  })
  @Access.cluster('admin')
  @Audited('alert-receiver.update')
  async update(
    @Cluster() cluster: RegisteredCluster,
    @Param('receiverId', Id) receiverId: string,
    @Body(new Valid(UpdateReceiverRequestSchema, 'alert receiver')) body: UpdateReceiverRequest,
    @AuditRecord() note: AuditNote,
  ) {
    note.describe({ clusterId: cluster.id, target: receiverId });
    return this.receivers.update(cluster.id, receiverId, body, note);
  }

  @Post('alert-receivers/:receiverId/test')
  @Describe({
    summary:
      'Send the receiver a test notification through the real path (the owner sends it within a second or so; its outcome is in the delivery log)',
    tag: 'alerts',
    status: 202,
    response: DeliverySchema,
  })
  @HttpCode(202)
  @Access.cluster('admin')
  @Audited('alert-receiver.test')
  async test(
    @Cluster() cluster: RegisteredCluster,
    @Param('receiverId', Id) receiverId: string,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ): Promise<Delivery> {
    note.describe({ clusterId: cluster.id, target: receiverId });
    return this.tests.send(cluster.id, receiverId, principal.name);
  }

  @Delete('alert-receivers/:receiverId')
  @Describe({
    summary: 'Remove a receiver, with what it was still owed',
    tag: 'alerts',
    status: 204,
  })
  @HttpCode(204)
  @Access.cluster('admin')
  @Audited('alert-receiver.delete')
  async remove(
    @Cluster() cluster: RegisteredCluster,
    @Param('receiverId', Id) receiverId: string,
    @AuditRecord() note: AuditNote,
  ): Promise<void> {
    note.describe({ clusterId: cluster.id, target: receiverId });
    await this.receivers.delete(cluster.id, receiverId, note);
  }
}
