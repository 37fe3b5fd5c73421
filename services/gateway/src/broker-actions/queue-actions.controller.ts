import {
  PauseQueueRequestSchema,
  QueueImpactQuerySchema,
  REASON_HEADER,
  ownerRpcs,
  type PauseQueueRequest,
  type QueueAction,
  type QueueActionResult,
  type QueueImpactQuery,
  QueueActionResultSchema,
} from '@artemis-studio/contracts';
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { BrokerName as QueueName, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { CurrentPrincipal } from '../access/request-context';
import type { Principal } from '../access/principal';
import { ActionRunner } from './action-runner';
import { ACTION_TIMEOUT_MS } from './action-timeout';
import { QueuePauseRepository } from './queue-pause.repository';
import { Describe, queueAction } from '../openapi/operation';
import { ProtectionGate } from '../protections/protection-gate';

/**
 * Pause, resume, purge and delete a queue, on every live node that holds it, through the
 * cluster's owner. Each needs `operator`, an Idempotency-Key, and a cluster that is not read-only;
 * each is audited with what every node did, and the depth before and after. A purge or a delete
 * is preceded in the console by its impact (a dry run the broker counts).
 */
@Controller('api/v1/clusters/:id/queues/:queue')
@Access.cluster('operator')
export class QueueActionsController {
  constructor(
    private readonly owner: OwnerClient,
    private readonly actions: ActionRunner,
    private readonly pauses: QueuePauseRepository,
    private readonly gate: ProtectionGate,
  ) {}

  /** What a purge or a delete would remove, counted by the broker now; nothing changes. */
  @Get('impact')
  @Describe({
    summary:
      'What a purge, a delete or a retry would take from the queue, counted by the broker; nothing changes',
    tag: 'actions',
    query: QueueImpactQuerySchema,
    status: 200,
    response: QueueActionResultSchema,
    owner: true,
  })
  async impact(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Query(new Valid(QueueImpactQuerySchema, 'impact query')) { action }: QueueImpactQuery,
  ): Promise<QueueActionResult> {
    const clusterId = cluster.id;
    return this.owner.ask(
      ownerRpcs.queueAction,
      { clusterId, queue, action, dryRun: true, persist: false },
      `counting what ${action} would remove`,
      ACTION_TIMEOUT_MS,
    );
  }

  @Post('pause')
  @Describe(queueAction('Pause a queue on every live node', PauseQueueRequestSchema))
  @HttpCode(200)
  @Audited('queue.pause')
  async pause(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(PauseQueueRequestSchema, 'pause')) { persist }: PauseQueueRequest,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    const result = await this.act(cluster.id, queue, 'pause', persist, key, note);
    await this.pauses.paused(cluster.id, queue, persist, principal.name);
    return result;
  }

  @Post('resume')
  @Describe(queueAction('Resume a paused queue on every live node'))
  @HttpCode(200)
  @Audited('queue.resume')
  async resume(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Headers('idempotency-key') key: string | undefined,
    @AuditRecord() note: AuditNote,
  ) {
    const result = await this.act(cluster.id, queue, 'resume', false, key, note);
    await this.pauses.ended(cluster.id, queue);
    return result;
  }

  @Post('purge')
  @Describe(queueAction('Remove every message of a queue, on every live node'))
  @HttpCode(200)
  @Audited('queue.purge')
  async purge(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Headers('idempotency-key') key: string | undefined,
    @Headers(REASON_HEADER) reason: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    const why = await this.gate.takingMessages(cluster, principal, queue, reason, note);
    return this.act(cluster.id, queue, 'purge', false, key, note, why.reason);
  }

  /** A dead-letter or expiry queue's messages back to the queues they came from. */
  @Post('retry')
  @Describe(queueAction("Send a dead-letter or expiry queue's messages back to the queues they came from"))
  @HttpCode(200)
  @Audited('queue.retry')
  retry(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Headers('idempotency-key') key: string | undefined,
    @AuditRecord() note: AuditNote,
  ) {
    return this.act(cluster.id, queue, 'retry', false, key, note);
  }

  /** Refused by the broker while the queue has consumers (they are not cut off from under it). */
  @Delete()
  @Describe(queueAction('Delete a queue (refused while it has consumers)'))
  @Audited('queue.delete')
  async remove(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    await this.gate.deleting(cluster, principal, 'queue', queue, note);
    const result = await this.act(cluster.id, queue, 'delete', false, key, note);
    await this.pauses.ended(cluster.id, queue);
    return result;
  }

  private act(
    id: string,
    queue: string,
    action: QueueAction,
    persist: boolean,
    key: string | undefined,
    note: AuditNote,
    reason?: string,
  ): Promise<QueueActionResult> {
    return this.actions.run({
      clusterId: id,
      key,
      // The reason a protected queue's purge was given goes into the audit row with the request.
      request: { action, queue, ...(action === 'pause' ? { persist } : {}), ...(reason ? { reason } : {}) },
      target: queue,
      note,
      act: () =>
        this.owner.ask(
          ownerRpcs.queueAction,
          { clusterId: id, queue, action, dryRun: false, persist },
          `${action} of ${queue}`,
          ACTION_TIMEOUT_MS,
        ),
      audit: auditDetail,
    });
  }
}

/** What the audit row keeps of a result: the count and each node's outcome, never a message body. */
function auditDetail(result: QueueActionResult): Record<string, unknown> {
  return {
    messages: result.messages,
    nodes: result.nodes.map(({ node, outcome, messages, depthBefore, depthAfter, error }) => ({
      node,
      outcome,
      messages,
      depthBefore,
      depthAfter,
      ...(error ? { error } : {}),
    })),
  };
}
