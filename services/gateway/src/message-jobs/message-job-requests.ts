import { MessageJobRepository } from '@artemis-studio/db';
import type { MessageJob, MessageJobBody } from '@artemis-studio/contracts';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';

/** A job asked to start on a queue, as the controller has it once the request is read. */
export interface JobStart {
  id: string;
  queue: string;
  body: MessageJobBody;
  key: string | undefined;
  principal: Principal;
  note: AuditNote;
  /** Why a protected queue's messages are taken, kept in the audit row. */
  reason?: string;
}

const jobNotFound = (id: string) =>
  new DomainError('not-found', 'MESSAGE_JOB_NOT_FOUND', `no message job ${id} on this cluster`);

/**
 * What the gateway asks of `message_job` (through the db's MessageJobRepository): a job read, or
 * asked to stop after its batch. The owner runs and writes it.
 */
@Injectable()
export class MessageJobRequests {
  constructor(private readonly database: DatabaseService) {}

  async list(clusterId: string, queue: string | undefined, limit: number): Promise<MessageJob[]> {
    return new MessageJobRepository(await this.database.forRequest()).list(clusterId, queue, limit);
  }

  async get(clusterId: string, id: string): Promise<MessageJob> {
    const job = await new MessageJobRepository(await this.database.forRequest()).get(clusterId, id);
    if (!job) throw jobNotFound(id);
    return job;
  }

  /**
   * Asks the job to stop after its current batch. One that already ended, or that the broker runs
   * in a single call (a delete by filter), cannot be: a 409 that says so.
   */
  async cancel(clusterId: string, id: string): Promise<MessageJob> {
    const jobs = new MessageJobRepository(await this.database.forRequest());
    const job = await jobs.get(clusterId, id);
    if (!job) throw jobNotFound(id);
    if (job.status !== 'running')
      throw new DomainError('conflict', 'MESSAGE_JOB_ENDED', `the job has ended already (${job.status})`);
    if (!job.cancellable)
      throw new DomainError(
        'conflict',
        'MESSAGE_JOB_NOT_CANCELLABLE',
        'the broker deletes by filter in one call: it cannot be stopped half-way',
      );
    return (await jobs.requestCancel(clusterId, id)) ?? job;
  }

  /** A job that can be resumed, or a 409 that says why this one cannot (the owner checks again). */
  async resumable(clusterId: string, id: string): Promise<MessageJob> {
    const job = await this.get(clusterId, id);
    if (job.status !== 'paused')
      throw new DomainError(
        'conflict',
        'MESSAGE_JOB_NOT_PAUSED',
        `only a paused job resumes; this one is ${job.status}`,
      );
    if (!job.resumable)
      throw new DomainError(
        'conflict',
        'MESSAGE_JOB_NOT_RESUMABLE',
        job.chosen !== null
          ? 'a job on chosen messages keeps no list of what is left: choose them again for a new job'
          : 'the job was recorded before requests were kept: start a new one over what is left',
      );
    return job;
  }
}
