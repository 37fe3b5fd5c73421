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
  MessageJobImpactSchema,
  MessageJobListSchema,
  MessageJobSchema,
  REASON_HEADER,
} from '@artemis-studio/contracts';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { CurrentPrincipal } from '../access/request-context';
import type { Principal } from '../access/principal';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { ActionRunner } from '../broker-actions/action-runner';
import { ACTION_TIMEOUT_MS } from '../broker-actions/action-timeout';
import { DomainError } from '../domain-error';
import { BrokerName as QueueName, Valid, Id } from '../http/validation.pipe';
import { OwnerClient } from '../owner/owner-client';
import { MessageJobRequests, type JobStart } from './message-job-requests';
import { Describe, messageJob } from '../openapi/operation';
import { MessageBodyAccess } from '../queue-messages/message-body-access';
import { ProtectionGate } from '../protections/protection-gate';

/**
 * Moves, copies, retries and deletes of a queue's messages (ADR-0012). Starting one is an action
 * like any other (operator, Idempotency-Key, not on a read-only cluster, audited under its kind),
 * answered 202 with the job as it starts; its progress is read here and signalled on `jobs`.
 */
@Controller('api/v1/clusters/:id')
export class MessageJobsController {
  constructor(
    private readonly owner: OwnerClient,
    private readonly actions: ActionRunner,
    private readonly jobs: MessageJobRequests,
    private readonly bodies: MessageBodyAccess,
    private readonly gate: ProtectionGate,
  ) {}

  /** How many messages a job would touch, counted by the broker now (a lower bound past its browse limit). */
  @Get('queues/:queue/messages/impact')
  @Describe({
    summary:
      'How many messages a move, copy, retry or delete would touch, counted by the broker (a lower bound past its browse limit)',
    tag: 'actions',
    query: MessageJobImpactQuerySchema,
    status: 200,
    response: MessageJobImpactSchema,
    owner: true,
  })
  @Access.cluster('operator')
  async impact(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Query(new Valid(MessageJobImpactQuerySchema, 'impact query')) query: MessageJobImpactQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MessageJobImpact> {
    const clusterId = cluster.id;
    const masking = await this.bodies.forBodyFilter(clusterId, principal, query.body);
    return this.owner.ask(
      ownerRpcs.messageJobImpact,
      { clusterId, queue, ...query, ...masking },
      `counting what a ${query.kind} would touch`,
      ACTION_TIMEOUT_MS,
    );
  }

  /**
   * To another queue: chosen messages, by filter, or all; or into a quarantine queue first; or one
   * node's messages to the same queue on another node of the cluster (`toNode`).
   */
  @Post('queues/:queue/messages/move')
  @Describe(
    messageJob(
      'Move messages to another queue (chosen, by filter, or all), into a quarantine queue, or to the same queue on another node (toNode: stranded messages), in batches',
    ),
  )
  @HttpCode(202)
  @Access.cluster('operator')
  @Audited('queue.messages.move')
  move(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(MessageJobBodySchema, 'move')) body: MessageJobBody,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    return this.start('move', { id: cluster.id, queue, body, key, principal, note });
  }

  /** Chosen messages copied to another queue (the broker copies by id only). */
  @Post('queues/:queue/messages/copy')
  @Describe(messageJob('Copy chosen messages to another queue (the broker copies by id only)'))
  @HttpCode(202)
  @Access.cluster('operator')
  @Audited('queue.messages.copy')
  copy(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(MessageJobBodySchema, 'copy')) body: MessageJobBody,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    return this.start('copy', { id: cluster.id, queue, body, key, principal, note });
  }

  /** Chosen messages, or a dead-letter group (`origin`), back to where they came from. */
  @Post('queues/:queue/messages/retry')
  @Describe(
    messageJob(
      'Send chosen messages, or a dead-letter group (origin), back where they came from, or into a quarantine first',
    ),
  )
  @HttpCode(202)
  @Access.cluster('operator')
  @Audited('queue.messages.retry')
  retry(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(MessageJobBodySchema, 'retry')) body: MessageJobBody,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    return this.start('retry', { id: cluster.id, queue, body, key, principal, note });
  }

  /** Chosen messages, by filter, or all. */
  @Post('queues/:queue/messages/delete')
  @Describe(
    messageJob(
      'Delete chosen messages, by filter, or all (one broker call for a filter: it cannot be cancelled)',
    ),
  )
  @HttpCode(202)
  @Access.cluster('operator')
  @Audited('queue.messages.delete')
  async remove(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Body(new Valid(MessageJobBodySchema, 'delete')) body: MessageJobBody,
    @Headers('idempotency-key') key: string | undefined,
    @Headers(REASON_HEADER) reason: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ) {
    const why = await this.gate.takingMessages(cluster, principal, queue, reason, note);
    return this.start('delete', { id: cluster.id, queue, body, key, principal, note, reason: why.reason });
  }

  /** The most recent jobs of the cluster (or of one queue), newest first. */
  @Get('message-jobs')
  @Describe({
    summary: "The cluster's most recent message jobs, newest first (of one queue with ?queue=)",
    tag: 'actions',
    query: MessageJobListQuerySchema,
    status: 200,
    response: MessageJobListSchema,
  })
  @Access.cluster('viewer')
  async list(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(MessageJobListQuerySchema, 'message jobs query')) query: MessageJobListQuery,
  ): Promise<MessageJobList> {
    const clusterId = cluster.id;
    return { jobs: await this.jobs.list(clusterId, query.queue, query.limit) };
  }

  @Get('message-jobs/:jobId')
  @Describe({
    summary: 'One message job: its status and what each node has done so far',
    tag: 'actions',
    status: 200,
    response: MessageJobSchema,
  })
  @Access.cluster('viewer')
  async get(@Cluster() cluster: RegisteredCluster, @Param('jobId', Id) jobId: string): Promise<MessageJob> {
    return this.jobs.get(cluster.id, jobId);
  }

  /** Stops the job after its current batch; what was done stays done and is reported exactly. */
  @Post('message-jobs/:jobId/cancel')
  @Describe({
    summary: 'Stop a message job after its current batch; what was done is reported exactly',
    tag: 'actions',
    status: 200,
    response: MessageJobSchema,
  })
  @HttpCode(200)
  @Access.cluster('operator')
  @Audited('message-job.cancel')
  async cancel(
    @Cluster() cluster: RegisteredCluster,
    @Param('jobId', Id) jobId: string,
    @AuditRecord() note: AuditNote,
  ): Promise<MessageJob> {
    note.describe({ clusterId: cluster.id, target: jobId });
    const job = await this.jobs.cancel(cluster.id, jobId);
    note.describe({ target: job.queue, detail: { jobId, kind: job.kind, processed: job.processed } });
    return job;
  }

  /**
   * Runs a paused job again from where it stopped (its return guard paused it): the owner plans it
   * anew over what is left, counted as a new job is, and its counts run on.
   */
  @Post('message-jobs/:jobId/resume')
  @Describe({
    summary:
      'Resume a job its return guard paused: planned again over what is left (returns included), its counts running on',
    tag: 'actions',
    status: 200,
    response: MessageJobSchema,
    owner: true,
  })
  @HttpCode(200)
  @Access.cluster('operator')
  @Audited('message-job.resume')
  async resume(
    @Cluster() cluster: RegisteredCluster,
    @Param('jobId', Id) jobId: string,
    @Headers('idempotency-key') key: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @AuditRecord() note: AuditNote,
  ): Promise<MessageJob> {
    const clusterId = cluster.id;
    note.describe({ clusterId, target: jobId });
    const paused = await this.jobs.resumable(clusterId, jobId);
    note.describe({
      target: paused.queue,
      detail: { jobId, kind: paused.kind, processed: paused.processed },
    });
    const masking = await this.bodies.forBodyFilter(clusterId, principal, paused.bodyFilter ?? undefined);
    return this.actions.run({
      clusterId,
      key,
      request: { resume: jobId },
      target: paused.queue,
      note,
      act: () =>
        this.owner.ask(
          ownerRpcs.messageJobResume,
          { clusterId, jobId, requestedBy: principal.name, ...masking },
          `resuming the ${paused.kind} of ${paused.queue}'s messages`,
          ACTION_TIMEOUT_MS,
        ),
      audit: (job) => ({ jobId: job.id, planned: job.planned, resumes: job.resumes }),
    });
  }

  private async start(kind: MessageJobKind, request: JobStart): Promise<MessageJob> {
    const { id, queue, body, key, principal, note, reason } = request;
    const problem = selectionProblem({ ...body, kind });
    if (problem) throw new DomainError('invalid', 'INVALID_REQUEST', problem);
    const masking = await this.bodies.forBodyFilter(id, principal, body.bodyFilter);
    return this.actions.run({
      clusterId: id,
      key,
      request: { kind, ...body, ...(reason ? { reason } : {}) },
      target: queue,
      note,
      act: () =>
        this.owner.ask(
          ownerRpcs.messageJobStart,
          {
            clusterId: id,
            jobId: randomUUID(),
            queue,
            job: { ...body, kind },
            requestedBy: principal.name,
            ...masking,
          },
          `${kind} of ${queue}'s messages`,
          ACTION_TIMEOUT_MS,
        ),
      audit: (job) => ({ jobId: job.id, planned: job.planned, target: job.target }),
    });
  }
}
