import {
  OpenUnmaskedWindowRequestSchema,
  UnmaskedWindowListSchema,
  UnmaskedWindowSchema,
  type OpenUnmaskedWindowRequest,
  type UnmaskedWindow,
  type UnmaskedWindowList,
} from '@artemis-studio/contracts';
import { SettingsService } from '@artemis-studio/platform';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Access } from '../access/permission';
import type { Principal } from '../access/principal';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { CurrentPrincipal } from '../access/request-context';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { BrokerName as QueueName, Id, Valid } from '../http/validation.pipe';
import { Describe } from '../openapi/operation';
import { MessageBodyAccess } from './message-body-access';
import { UnmaskedWindowsRepository } from './unmasked-windows.repository';

/**
 * Break-glass access to masked bodies (issue 62, item 3): an administrator opens one queue's
 * unmasked bodies to themselves for a few minutes, with a reason; everyone on the cluster sees it
 * is in force.
 */
@Controller('api/v1/clusters/:id')
export class UnmaskedWindowsController {
  constructor(
    private readonly windows: UnmaskedWindowsRepository,
    private readonly bodies: MessageBodyAccess,
    private readonly settings: SettingsService,
  ) {}

  @Get('unmasked-windows')
  @Describe({
    summary: "The cluster's break-glass windows on unmasked bodies in force",
    tag: 'actions',
    status: 200,
    response: UnmaskedWindowListSchema,
  })
  @Access.cluster('viewer')
  async list(@Cluster() cluster: RegisteredCluster): Promise<UnmaskedWindowList> {
    return { items: await this.windows.inForce(cluster.id) };
  }

  @Post('queues/:queue/unmasked-windows')
  @Describe({
    summary: "Open a queue's unmasked bodies to yourself for a few minutes, with a reason (admin)",
    tag: 'actions',
    body: OpenUnmaskedWindowRequestSchema,
    status: 201,
    response: UnmaskedWindowSchema,
  })
  @Access.cluster('admin')
  @Audited('message.unmask')
  async open(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(OpenUnmaskedWindowRequestSchema, 'unmasked window')) request: OpenUnmaskedWindowRequest,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ): Promise<UnmaskedWindow> {
    note.describe({ clusterId: cluster.id, target: queue });
    // Without the right to read bodies at all, there is nothing to unmask.
    await this.bodies.require(cluster.id, principal, 'opening unmasked bodies');
    const most = this.settings.get('artemis-studio.messages.unmasked-max-minutes');
    if (request.minutes > most)
      throw new DomainError('invalid', 'VALIDATION_FAILED', `a window lasts at most ${most} minutes here`, [
        { path: 'minutes', message: `at most ${most}` },
      ]);
    return this.windows.open(cluster.id, queue, { id: principal.id, name: principal.name }, request, note);
  }

  @Post('unmasked-windows/:windowId/end')
  @Describe({
    summary: 'End a break-glass window before its time (admin)',
    tag: 'actions',
    status: 200,
    response: UnmaskedWindowSchema,
  })
  @HttpCode(200)
  @Access.cluster('admin')
  @Audited('message.unmask-end')
  end(
    @Cluster() cluster: RegisteredCluster,
    @Param('windowId', Id) id: string,
    @AuditRecord() note: AuditNote,
  ): Promise<UnmaskedWindow> {
    note.describe({ clusterId: cluster.id });
    return this.windows.end(cluster.id, id, note);
  }
}
