import {
  MessageJobBodySchema,
  MessageJobImpactQuerySchema,
  MessageJobListQuerySchema,
  ownerRpcs,
  selectionProblem,
  type MessageJob,
  type MessageJobBody,
  type MessageJobImpact,
  type MessageJobImpactQuery,
  type MessageJobKind,
  type MessageJobList,
  type MessageJobListQuery,
} from '@artemis-studio/contracts';
import { Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Access } from '../access/permission';
import { CurrentPrincipal } from '../access/request-context';
import type { Principal } from '../access/principal';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { ActionRunner } from '../broker-actions/action-runner';
import { ACTION_TIMEOUT_MS } from '../broker-actions/action-timeout';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';
import { BrokerName as QueueName, ClusterId, Valid } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { MessageJobRepository } from './message-job.repository';

/**
 * Moves, copies, retries and deletes of a queue's messages (ADR-0012). Starting one is an action
 * like any other (operator, Idempotency-Key, not on a read-only cluster, audited under its kind),
 * answered 202 with the job as it starts; its progress is read here and signalled on `jobs`.
 */
@Controller('api/v1/clusters/:id')
export class MessageJobsController {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly owner: OwnerClient,
    private readonly actions: ActionRunner,
    private readonly jobs: MessageJobRepository,
  ) {}

  /** How many messages a job would touch, counted by the broker now (a lower bound past its browse limit). */
  @Get('queues/:queue/messages/impact')
  @Access.cluster('operator')
  async impact(
    @Param('id', ClusterId) id: string,
    @Param('queue', QueueName) queue: string,
    @Query(new Valid(MessageJobImpactQuerySchema, 'impact query')) query: MessageJobImpactQuery,
  ): Promise<MessageJobImpact> {
    const clusterId = await this.clusters.known(id);
    return this.owner.ask(
      ownerRpcs.messageJobImpact,
      { clusterId, queue, ...query },
      `counting what a ${query.kind} would touch`,
      ACTION_TIMEOUT_MS,
    );
  }

  /** To another queue: chosen messages, by filter, or all; or into a quarantine queue first. */
  @Post('queues/:queue/messages/move')
  @HttpCode(202)
  @Access.cluster('operator')
  @Audited('queue.messages.move')
  move(
    @Param('id', ClusterId) id: string,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(MessageJobBodySchema, 'move')) body: MessageJobBody,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    return this.start('move', { id, queue, body, key, principal, note });
  }

  /** Chosen messages copied to another queue (the broker copies by id only). */
  @Post('queues/:queue/messages/copy')
  @HttpCode(202)
  @Access.cluster('operator')
  @Audited('queue.messages.copy')
  copy(
    @Param('id', ClusterId) id: string,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(MessageJobBodySchema, 'copy')) body: MessageJobBody,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    return this.start('copy', { id, queue, body, key, principal, note });
  }

  /** Chosen messages, or a dead-letter group (`origin`), back to where they came from. */
  @Post('queues/:queue/messages/retry')
  @HttpCode(202)
  @Access.cluster('operator')
  @Audited('queue.messages.retry')
  retry(
    @Param('id', ClusterId) id: string,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(MessageJobBodySchema, 'retry')) body: MessageJobBody,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    return this.start('retry', { id, queue, body, key, principal, note });
  }

  /** Chosen messages, by filter, or all. */
  @Post('queues/:queue/messages/delete')
  @HttpCode(202)
  @Access.cluster('operator')
  @Audited('queue.messages.delete')
  remove(
    @Param('id', ClusterId) id: string,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(MessageJobBodySchema, 'delete')) body: MessageJobBody,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    return this.start('delete', { id, queue, body, key, principal, note });
  }

  /** The most recent jobs of the cluster (or of one queue), newest first. */
  @Get('message-jobs')
  @Access.cluster('viewer')
  async list(
    @Param('id', ClusterId) id: string,
    @Query(new Valid(MessageJobListQuerySchema, 'message jobs query')) query: MessageJobListQuery,
  ): Promise<MessageJobList> {
    const clusterId = await this.clusters.known(id);
    return { jobs: await this.jobs.list(clusterId, query.queue, query.limit) };
  }

  @Get('message-jobs/:jobId')
  @Access.cluster('viewer')
  async get(
    @Param('id', ClusterId) id: string,
    @Param('jobId', new ParseUUIDPipe({ errorHttpStatusCode: 400 })) jobId: string,
  ): Promise<MessageJob> {
    return this.jobs.get(await this.clusters.known(id), jobId);
  }

  /** Stops the job after its current batch; what was done stays done and is reported exactly. */
  @Post('message-jobs/:jobId/cancel')
  @HttpCode(200)
  @Access.cluster('operator')
  @Audited('message-job.cancel')
  async cancel(
    @Param('id', ClusterId) id: string,
    @Param('jobId', new ParseUUIDPipe({ errorHttpStatusCode: 400 })) jobId: string,
    @AuditRecord() note: AuditNote,
  ): Promise<MessageJob> {
    note.describe({ clusterId: id, target: jobId });
    const job = await this.jobs.cancel(await this.clusters.known(id), jobId);
    note.describe({ target: job.queue, detail: { jobId, kind: job.kind, processed: job.processed } });
    return job;
  }

  private start(
    kind: MessageJobKind,
    request: {
      id: string;
      queue: string;
      body: MessageJobBody;
      key: string | undefined;
      principal: Principal;
      note: AuditNote;
    },
  ): Promise<MessageJob> {
    const { id, queue, body, key, principal, note } = request;
    const problem = selectionProblem({ ...body, kind });
    if (problem) throw new DomainError('invalid', 'INVALID_REQUEST', problem);
    return this.actions.run({
      clusterId: id,
      key,
      request: { kind, ...body },
      target: queue,
      note,
      act: () =>
        this.owner.ask(
          ownerRpcs.messageJobStart,
          { clusterId: id, jobId: randomUUID(), queue, job: { ...body, kind }, requestedBy: principal.name },
          `${kind} of ${queue}'s messages`,
          ACTION_TIMEOUT_MS,
        ),
      audit: (job) => ({ jobId: job.id, planned: job.planned, target: job.target }),
    });
  }
}
