import { MessageJobQueries } from '@artemis-studio/db';
import type { MessageJob } from '@artemis-studio/contracts';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';

const jobNotFound = (id: string) =>
  new DomainError('not-found', 'MESSAGE_JOB_NOT_FOUND', `no message job ${id} on this cluster`);

/** `message_job` as the gateway sees it: read, and asked to stop (the owner runs and writes it). */
@Injectable()
export class MessageJobRepository {
  constructor(private readonly database: DatabaseService) {}

  async list(clusterId: string, queue: string | undefined, limit: number): Promise<MessageJob[]> {
    return new MessageJobQueries(await this.database.forRequest()).list(clusterId, queue, limit);
  }

  async get(clusterId: string, id: string): Promise<MessageJob> {
    const job = await new MessageJobQueries(await this.database.forRequest()).get(clusterId, id);
    if (!job) throw jobNotFound(id);
    return job;
  }

  /**
   * Asks the job to stop after its current batch. One that already ended, or that the broker runs
   * in a single call (a delete by filter), cannot be: a 409 that says so.
   */
  async cancel(clusterId: string, id: string): Promise<MessageJob> {
    const queries = new MessageJobQueries(await this.database.forRequest());
    const job = await queries.get(clusterId, id);
    if (!job) throw jobNotFound(id);
    if (job.status !== 'running')
      throw new DomainError('conflict', 'MESSAGE_JOB_ENDED', `the job has ended already (${job.status})`);
    if (!job.cancellable)
      throw new DomainError(
        'conflict',
        'MESSAGE_JOB_NOT_CANCELLABLE',
        'the broker deletes by filter in one call: it cannot be stopped half-way',
      );
    return (await queries.requestCancel(clusterId, id)) ?? job;
  }
}
