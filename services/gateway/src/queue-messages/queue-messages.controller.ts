import {
  QueueMessagesQuerySchema,
  ownerRpcs,
  type QueueMessagesPage,
  type QueueMessagesQuery,
} from '@artemis-studio/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { ClusterRepository } from '../clusters/cluster.repository';
import { ACTION_TIMEOUT_MS } from '../broker-actions/action-timeout';
import { BrokerName as QueueName, ClusterId, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';

/**
 * A queue's messages, a page at a time, as the broker shows them. Message contents are often
 * personal data: reading them needs `operator`, not `viewer`.
 */
@Controller('api/v1/clusters/:id/queues/:queue')
@Access.cluster('operator')
export class QueueMessagesController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly owner: OwnerClient,
  ) {}

  @Get('messages')
  async page(
    @Param('id', ClusterId) id: string,
    @Param('queue', QueueName) queue: string,
    @Query(new Valid(QueueMessagesQuerySchema, 'messages query')) query: QueueMessagesQuery,
  ): Promise<QueueMessagesPage> {
    const clusterId = await this.clusters.known(id);
    return this.owner.ask(
      ownerRpcs.queueBrowse,
      { clusterId, queue, ...query },
      `browsing ${queue}`,
      ACTION_TIMEOUT_MS,
    );
  }
}
