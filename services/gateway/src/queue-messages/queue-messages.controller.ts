import {
  QueueMessagesQuerySchema,
  ownerRpcs,
  type QueueMessagesPage,
  type QueueMessagesQuery,
  QueueMessagesPageSchema,
} from '@artemis-studio/contracts';
import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import type { Principal } from '../access/principal';
import { CurrentPrincipal } from '../access/request-context';
import { maskPage } from './masking';
import { MessageBodyAccess } from './message-body-access';
import { ACTION_TIMEOUT_MS } from '../broker-actions/action-timeout';
import { BrokerName as QueueName, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { Describe } from '../openapi/operation';
import { draftFor, type AuditedRequest } from '../audit/audit-note';
import { AuditRepository } from '../audit/audit.repository';
import { UnmaskedWindowsRepository } from './unmasked-windows.repository';

/**
 * A queue's messages, a page at a time, as the broker shows them. Message contents are often
 * personal data: reading them needs the cluster's `messageBodies` role (operator unless an
 * administrator opened it to viewers or closed it to all but admins), and the cluster's masking
 * rules are applied here, before anything leaves the gateway.
 */
@Controller('api/v1/clusters/:id/queues/:queue')
@Access.cluster('viewer')
export class QueueMessagesController {
  constructor(
    private readonly bodies: MessageBodyAccess,
    private readonly owner: OwnerClient,
    private readonly windows: UnmaskedWindowsRepository,
    private readonly audit: AuditRepository,
  ) {}

  @Get('messages')
  @Describe({
    summary: "One page of a queue's messages on one node, bodies as the broker shows them (operator)",
    tag: 'actions',
    query: QueueMessagesQuerySchema,
    status: 200,
    response: QueueMessagesPageSchema,
    owner: true,
  })
  async page(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Query(new Valid(QueueMessagesQuerySchema, 'messages query')) query: QueueMessagesQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: AuditedRequest,
  ): Promise<QueueMessagesPage> {
    const access = await this.bodies.require(cluster.id, principal, 'reading messages');
    // A break-glass window of this person on this queue: no masking, and each message seen audited.
    const window = await this.windows.mine(access.id, queue, principal.id);
    const masking = window ? undefined : access.masking;
    const page = await this.owner.ask(
      ownerRpcs.queueBrowse,
      { clusterId: access.id, queue, ...query, masking },
      `browsing ${queue}`,
      ACTION_TIMEOUT_MS,
    );
    if (!window) return maskPage(page, access.masking);
    await this.audit.insert({
      ...draftFor(req, 'message.view-unmasked', 200),
      clusterId: access.id,
      target: queue,
      detail: { windowId: window.id, node: page.node, messageIds: page.messages.map((m) => m.messageId) },
    });
    return { ...page, unmaskedUntil: window.endsAt };
  }
}
