import {
  DeadLetterGroupsQuerySchema,
  ownerRpcs,
  type DeadLetterGroups,
  type DeadLetterGroupsQuery,
  DeadLetterGroupsSchema,
} from '@artemis-studio/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { ACTION_TIMEOUT_MS } from '../broker-actions/action-timeout';
import { BrokerName as QueueName, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { Describe } from '../openapi/operation';
import { CurrentPrincipal } from '../access/request-context';
import type { Principal } from '../access/principal';
import { MessageBodyAccess } from '../queue-messages/message-body-access';

/**
 * A dead-letter or expiry queue's messages grouped by the queue they came from. It names queues
 * and counts, never a message's contents: a viewer may read it; grouped by a body filter, it reads
 * the contents, and needs the cluster's `messageBodies` role.
 */
@Controller('api/v1/clusters/:id/queues/:queue')
@Access.cluster('viewer')
export class DeadLettersController {
  constructor(
    private readonly owner: OwnerClient,
    private readonly bodies: MessageBodyAccess,
  ) {}

  @Get('dead-letters')
  @Describe({
    summary: "A dead-letter or expiry queue's messages grouped by the queue they came from",
    tag: 'actions',
    query: DeadLetterGroupsQuerySchema,
    status: 200,
    response: DeadLetterGroupsSchema,
    owner: true,
  })
  async groups(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Query(new Valid(DeadLetterGroupsQuerySchema, 'dead-letters query')) query: DeadLetterGroupsQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DeadLetterGroups> {
    const clusterId = cluster.id;
    const masking = await this.bodies.forBodyFilter(clusterId, principal, query.body);
    return this.owner.ask(
      ownerRpcs.deadLetterGroups,
      { clusterId, queue, ...query, ...masking },
      `grouping ${queue}'s messages by origin`,
      ACTION_TIMEOUT_MS,
    );
  }
}
