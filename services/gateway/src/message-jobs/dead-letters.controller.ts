import {
  DeadLetterGroupsQuerySchema,
  ownerRpcs,
  type DeadLetterGroups,
  type DeadLetterGroupsQuery,
} from '@artemis-studio/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { ACTION_TIMEOUT_MS } from '../broker-actions/action-timeout';
import { ClusterRepository } from '../clusters/cluster.repository';
import { BrokerName as QueueName, ClusterId, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';

/**
 * A dead-letter or expiry queue's messages grouped by the queue they came from. It names queues
 * and counts, never a message's contents: a viewer may read it.
 */
@Controller('api/v1/clusters/:id/queues/:queue')
@Access.cluster('viewer')
export class DeadLettersController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly owner: OwnerClient,
  ) {}

  @Get('dead-letters')
  async groups(
    @Param('id', ClusterId) id: string,
    @Param('queue', QueueName) queue: string,
    @Query(new Valid(DeadLetterGroupsQuerySchema, 'dead-letters query')) query: DeadLetterGroupsQuery,
  ): Promise<DeadLetterGroups> {
    const clusterId = await this.clusters.known(id);
    return this.owner.ask(
      ownerRpcs.deadLetterGroups,
      { clusterId, queue, ...query },
      `grouping ${queue}'s messages by origin`,
      ACTION_TIMEOUT_MS,
    );
  }
}
