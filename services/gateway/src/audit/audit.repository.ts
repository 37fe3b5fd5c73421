import type { AuditEvent, AuditPage, AuditQuery } from '@artemis-studio/contracts';
import { changeOf, Filters, firstRow, isoOrNull, pageBefore, rowsOf, type Sql } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';

/** An audit row before it is written: seq and time are the database's. */
export type AuditDraft = Omit<AuditEvent, 'seq' | 'at'>;

interface AuditRecord {
  seq: string;
  at: Date;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string;
  address: string | null;
  role: AuditEvent['role'];
  action: string;
  cluster_id: string | null;
  target: string | null;
  outcome: AuditEvent['outcome'];
  status: number;
  code: string | null;
  request_id: string | null;
  detail: Record<string, unknown> | null;
}

const toEvent = (r: AuditRecord): AuditEvent => ({
  seq: Number(r.seq),
  at: r.at.toISOString(),
  actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name },
  address: r.address,
  role: r.role,
  action: r.action,
  clusterId: r.cluster_id,
  target: r.target,
  outcome: r.outcome,
  status: r.status,
  code: r.code,
  requestId: r.request_id,
  detail: r.detail ?? {},
});

/** `audit_event`: append-only (a trigger refuses updates, and deletes but the reaper's). */
@Injectable()
export class AuditRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Writes a row in `sql` (a transaction's, so it commits with the change it records), or on its own. */
  async insert(draft: AuditDraft, sql?: Sql): Promise<AuditEvent> {
    const [row] = await rowsOf<{ seq: string; at: Date }>(
      sql ?? (await this.database.forRequest()),
      `INSERT INTO audit_event (actor_kind, actor_id, actor_name, address, role, action, cluster_id, target,
                                outcome, status, code, request_id, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING seq, at`,
      [
        draft.actor.kind,
        draft.actor.id,
        draft.actor.name,
        draft.address,
        draft.role,
        draft.action,
        draft.clusterId,
        draft.target,
        draft.outcome,
        draft.status,
        draft.code,
        draft.requestId,
        JSON.stringify(draft.detail),
      ],
    );
    return { ...draft, seq: Number(row.seq), at: row.at.toISOString() };
  }

  /**
   * Wrong passwords tried in the last `windowSeconds`: for this username, and from this address
   * (the sign-in limiter counts from the trail itself, the same on every replica).
   */
  async wrongPasswords(
    username: string,
    address: string | null,
    windowSeconds: number,
  ): Promise<{ byUser: number; byAddress: number }> {
    const counts = await firstRow<{ by_user: number; by_address: number }>(
      await this.database.forRequest(),
      `SELECT count(*) FILTER (WHERE target = $1)::int AS by_user,
              count(*) FILTER (WHERE address = $2)::int AS by_address
       FROM audit_event
       WHERE action IN ('auth.sign-in', 'auth.password') AND code IN ('INVALID_CREDENTIALS', 'WRONG_PASSWORD')
         AND at > now() - $3 * interval '1 second'`,
      [username, address, windowSeconds],
    );
    return { byUser: counts?.by_user ?? 0, byAddress: counts?.by_address ?? 0 };
  }

  /** Newest first, keyset-paged by seq. */
  async page(query: AuditQuery): Promise<AuditPage> {
    const filters = new Filters()
      .add('actor_name = ?', query.actor)
      .add('action = ?', query.action)
      .add('cluster_id = ?', query.clusterId)
      .add('outcome = ?', query.outcome)
      .add('at >= ?', query.from)
      .add('at < ?', query.to);
    const db = await this.database.forRequest();
    const { rows, nextBefore } = await pageBefore<AuditRecord>(db, 'audit_event', filters, query);
    return { items: await withJobOutcomes(db, rows.map(toEvent)), nextBefore };
  }

  /** Rows older than `days` go; the only deletion the append-only trigger allows. */
  async reap(days: number): Promise<number> {
    return this.database.transaction(async (tx) => {
      // The append-only trigger lets this transaction, and only it, delete.
      await tx.query(`SET LOCAL studio.audit_reaper = 'on'`);
      const { count } = await changeOf(
        tx,
        `DELETE FROM audit_event WHERE at < now() - $1 * interval '1 day'`,
        [days],
      );
      return count;
    });
  }
}

/**
 * A message job outlives the request that started it (ADR-0012): its row is written once, at the
 * start, and never changed (the trail is append-only), so what the job went on to do is read from
 * the job and shown with it.
 */
async function withJobOutcomes(db: Sql, events: AuditEvent[]): Promise<AuditEvent[]> {
  const jobIds = events.map((e) => e.detail.jobId).filter((id): id is string => typeof id === 'string');
  if (jobIds.length === 0) return events;
  const jobs = await rowsOf<{
    id: string;
    status: string;
    nodes: unknown[];
    error: string | null;
    finished_at: Date | null;
  }>(db, `SELECT id, status, nodes, error, finished_at FROM message_job WHERE id = ANY($1::uuid[])`, [
    jobIds,
  ]);
  const byId = new Map(jobs.map((j) => [j.id, j]));
  return events.map((e) => {
    const job = typeof e.detail.jobId === 'string' ? byId.get(e.detail.jobId) : undefined;
    return job
      ? {
          ...e,
          detail: {
            ...e.detail,
            job: {
              status: job.status,
              nodes: job.nodes,
              error: job.error,
              finishedAt: isoOrNull(job.finished_at),
            },
          },
        }
      : e;
  });
}
