import type {
  BodyFilter,
  BodyScan,
  BrokerCount,
  MessageJob,
  MessageJobKind,
  MessageJobNode,
  MessageJobStatus,
  ReturnGuard,
  StartMessageJobRequest,
} from '@artemis-studio/contracts';
import { changeOf, firstRow, isoOrNull, rowsOf, type Sql } from './sql/typed-rows';

interface MessageJobRow {
  id: string;
  cluster_id: string;
  queue: string;
  kind: MessageJobKind;
  status: MessageJobStatus;
  filter: string | null;
  origin: string | null;
  chosen: number | null;
  target: string | null;
  quarantine: boolean;
  to_node: string | null;
  batch_size: number;
  rate: number | null;
  wait_for_consumer: boolean;
  waiting: string | null;
  pause_on_returns: ReturnGuard | null;
  planned: BrokerCount | null;
  body_filter: BodyFilter | null;
  body_scan: BodyScan | null;
  // Rows written before the return guard have no `returned`: none were watched.
  nodes: (Omit<MessageJobNode, 'returned'> & { returned?: number })[];
  in_flight: number | null;
  cancellable: boolean;
  cancel_requested_at: Date | null;
  /** The job as it was asked; null on jobs recorded before resumes (1766600000000). */
  request: StartMessageJobRequest | null;
  resumes: number;
  error: string | null;
  requested_by: string | null;
  started_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const jobOf = (r: MessageJobRow): MessageJob => ({
  id: r.id,
  clusterId: r.cluster_id,
  queue: r.queue,
  kind: r.kind,
  status: r.status,
  filter: r.filter,
  origin: r.origin,
  chosen: r.chosen,
  target: r.target,
  quarantine: r.quarantine,
  toNode: r.to_node,
  batchSize: r.batch_size,
  rate: r.rate,
  waitForConsumer: r.wait_for_consumer,
  waiting: r.waiting,
  pauseOnReturns: r.pause_on_returns,
  planned: r.planned,
  bodyFilter: r.body_filter,
  bodyScan: r.body_scan,
  processed: r.nodes.reduce((sum, n) => sum + n.processed, 0),
  returned: r.nodes.reduce((sum, n) => sum + (n.returned ?? 0), 0),
  nodes: r.nodes.map((n) => ({ ...n, returned: n.returned ?? 0 })),
  inFlight: r.in_flight,
  cancellable: r.cancellable,
  cancelRequested: r.cancel_requested_at !== null,
  resumable: r.status === 'paused' && r.request !== null && r.chosen === null,
  resumes: r.resumes,
  error: r.error,
  requestedBy: r.requested_by,
  startedAt: r.started_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  finishedAt: isoOrNull(r.finished_at),
});

/** A job as it starts: what was asked, and what the broker counted for it. */
export type NewMessageJob = Pick<
  MessageJob,
  | 'id'
  | 'clusterId'
  | 'queue'
  | 'kind'
  | 'filter'
  | 'origin'
  | 'chosen'
  | 'target'
  | 'quarantine'
  | 'toNode'
  | 'batchSize'
  | 'rate'
  | 'waitForConsumer'
  | 'pauseOnReturns'
  | 'planned'
  | 'bodyFilter'
  | 'bodyScan'
  | 'nodes'
  | 'cancellable'
  | 'requestedBy'
> & { request: StartMessageJobRequest };

/** What the runner learns when it records a batch: whether to go on. */
export interface JobProgress {
  /** An operator asked to stop it. */
  cancelRequested: boolean;
  /** Another replica took the cluster over and declared the job interrupted. */
  interrupted: boolean;
}

/**
 * `message_job`: written by the cluster's owner (the scraper) as a job runs, read and cancelled
 * through the gateway. Every batch's count is written before the next batch starts.
 */
export class MessageJobRepository {
  constructor(private readonly sql: Sql) {}

  async insert(job: NewMessageJob): Promise<MessageJob> {
    const row = await firstRow<MessageJobRow>(
      this.sql,
      `INSERT INTO message_job (id, cluster_id, queue, kind, status, filter, origin, chosen, target,
         quarantine, batch_size, planned, nodes, cancellable, requested_by, to_node, rate, wait_for_consumer, pause_on_returns, body_filter, body_scan, request)
       VALUES ($1, $2, $3, $4, 'running', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
       RETURNING *`,
      [
        job.id,
        job.clusterId,
        job.queue,
        job.kind,
        job.filter,
        job.origin,
        job.chosen,
        job.target,
        job.quarantine,
        job.batchSize,
        job.planned ? JSON.stringify(job.planned) : null,
        JSON.stringify(job.nodes),
        job.cancellable,
        job.requestedBy,
        job.toNode,
        job.rate,
        job.waitForConsumer,
        job.pauseOnReturns ? JSON.stringify(job.pauseOnReturns) : null,
        job.bodyFilter ? JSON.stringify(job.bodyFilter) : null,
        job.bodyScan ? JSON.stringify(job.bodyScan) : null,
        JSON.stringify(job.request),
      ],
    );
    return jobOf(row!);
  }

  /** A job with the request it was started with (null for jobs recorded before requests were kept). */
  async withRequest(
    clusterId: string,
    id: string,
  ): Promise<{ job: MessageJob; request: StartMessageJobRequest | null } | null> {
    const row = await firstRow<MessageJobRow>(
      this.sql,
      `SELECT * FROM message_job WHERE cluster_id = $1 AND id = $2`,
      [clusterId, id],
    );
    return row ? { job: jobOf(row), request: row.request } : null;
  }

  /**
   * A paused job running again, with the nodes' counts it runs on from and what the broker counts
   * now added to what it had done; null when it is no longer paused (resumed by another request).
   */
  async resume(id: string, nodes: MessageJobNode[], planned: BrokerCount | null): Promise<MessageJob | null> {
    const { rows } = await changeOf<MessageJobRow>(
      this.sql,
      `UPDATE message_job
       SET status = 'running', error = NULL, waiting = NULL, in_flight = NULL, finished_at = NULL,
           cancel_requested_at = NULL, nodes = $2, planned = $3, resumes = resumes + 1, updated_at = now()
       WHERE id = $1 AND status = 'paused'
       RETURNING *`,
      [id, JSON.stringify(nodes), planned ? JSON.stringify(planned) : null],
    );
    return rows[0] ? jobOf(rows[0]) : null;
  }

  /**
   * Records the nodes' counts after a batch. A job another replica declared interrupted still
   * takes the count (the batch did happen) but is told to stop.
   */
  progress(id: string, nodes: MessageJobNode[]): Promise<JobProgress> {
    return this.step(id, 'nodes', JSON.stringify(nodes));
  }

  /**
   * Why the job waits before its next batch (null once it goes on), with the same answer as a
   * batch's record: a job waiting can be cancelled or taken over.
   */
  waiting(id: string, reason: string | null): Promise<JobProgress> {
    return this.step(id, 'waiting', reason);
  }

  private async step(id: string, column: 'nodes' | 'waiting', value: string | null): Promise<JobProgress> {
    const { rows } = await changeOf<{ cancel: boolean; status: MessageJobStatus }>(
      this.sql,
      `UPDATE message_job SET ${column} = $2, updated_at = now()
       WHERE id = $1 AND status IN ('running', 'interrupted')
       RETURNING cancel_requested_at IS NOT NULL AS cancel, status`,
      [id, value],
    );
    return { cancelRequested: rows[0]?.cancel ?? false, interrupted: rows[0]?.status !== 'running' };
  }

  /** The job's end, unless another replica already declared it interrupted (that account stands). */
  async finish(
    id: string,
    end: { status: MessageJobStatus; nodes: MessageJobNode[]; error: string | null; inFlight?: number },
  ): Promise<MessageJob | null> {
    const { rows } = await changeOf<MessageJobRow>(
      this.sql,
      `UPDATE message_job
       SET status = CASE WHEN status = 'running' THEN $2 ELSE status END,
           nodes = $3, error = COALESCE(error, $4), waiting = NULL, in_flight = CASE WHEN status = 'running' THEN $5 ELSE in_flight END,
           updated_at = now(), finished_at = COALESCE(finished_at, now())
       WHERE id = $1 AND status IN ('running', 'interrupted')
       RETURNING *`,
      [id, end.status, JSON.stringify(end.nodes), end.error, end.inFlight ?? null],
    );
    return rows[0] ? jobOf(rows[0]) : null;
  }

  /**
   * A cluster's jobs left running by a replica that stopped (its owner is now this one): each is
   * interrupted, with at most one batch (or, for a one-call delete, what it planned) uncounted.
   */
  async interruptRunning(clusterId: string, reason: string): Promise<MessageJob[]> {
    const { rows } = await changeOf<MessageJobRow>(
      this.sql,
      `UPDATE message_job
       SET status = 'interrupted', error = $2,
           in_flight = CASE WHEN cancellable THEN batch_size ELSE COALESCE((planned->>'count')::int, batch_size) END,
           waiting = NULL, updated_at = now(), finished_at = now()
       WHERE cluster_id = $1 AND status = 'running'
       RETURNING *`,
      [clusterId, reason],
    );
    return rows.map(jobOf);
  }

  async get(clusterId: string, id: string): Promise<MessageJob | null> {
    const row = await firstRow<MessageJobRow>(
      this.sql,
      `SELECT * FROM message_job WHERE cluster_id = $1 AND id = $2`,
      [clusterId, id],
    );
    return row ? jobOf(row) : null;
  }

  async list(clusterId: string, queue: string | undefined, limit: number): Promise<MessageJob[]> {
    const rows = await rowsOf<MessageJobRow>(
      this.sql,
      `SELECT * FROM message_job WHERE cluster_id = $1 AND ($2::text IS NULL OR queue = $2)
       ORDER BY started_at DESC LIMIT $3`,
      [clusterId, queue ?? null, limit],
    );
    return rows.map(jobOf);
  }

  /** Asks a running job to stop after its current batch; the job as it is now, or null when unknown. */
  async requestCancel(clusterId: string, id: string): Promise<MessageJob | null> {
    await changeOf(
      this.sql,
      `UPDATE message_job SET cancel_requested_at = COALESCE(cancel_requested_at, now())
       WHERE cluster_id = $1 AND id = $2 AND status = 'running'`,
      [clusterId, id],
    );
    return this.get(clusterId, id);
  }
}
