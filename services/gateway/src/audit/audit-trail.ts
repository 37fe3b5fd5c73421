import { Bus } from '@artemis-studio/bus';
import {
  channels,
  subjects,
  type AuditEvent,
  type AuditPage,
  type AuditQuery,
} from '@artemis-studio/contracts';
import { BUS, SettingsService } from '@artemis-studio/platform';
import { ExecutionContext, Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Counter, Registry } from 'prom-client';
import { AccessStore, type Sql } from '../access/access-store';
import type { StudioRequest } from '../access/request-context';
import type { DomainError } from '../domain-error';
import { describeFailure } from '../http/error.filter';
import { AUDIT_ACTION, draftFor, type AuditDraft, type AuditNote, type AuditWriter } from './audit-note';

const REAP_EVERY_MS = 60 * 60_000;

const outcomeOf = (status: number): AuditEvent['outcome'] =>
  status < 400 ? 'success' : status === 401 || status === 403 || status === 429 ? 'denied' : 'failure';

/**
 * The audit trail: append-only rows in `audit_event` (the record), each published on
 * `studio.v1.audit.<action>` once committed (for other tools; at most once, the table is the truth).
 */
@Injectable()
export class AuditTrail implements AuditWriter, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Audit');
  private readonly lost: Counter;
  private reaper?: NodeJS.Timeout;

  constructor(
    private readonly store: AccessStore,
    private readonly settings: SettingsService,
    private readonly reflector: Reflector,
    @Inject(BUS) private readonly bus: Bus,
    registry: Registry,
  ) {
    this.lost = new Counter({
      name: 'studio_gateway_audit_unwritten_total',
      help: 'Audit rows that could not be written (PostgreSQL unavailable when a request failed)',
      registers: [registry],
    });
  }

  /** Reaped once the database is there, then hourly, by every replica (a second reap finds nothing). */
  onModuleInit(): void {
    const reap = () => void this.reap().catch(() => undefined);
    void this.store.whenReady().then(reap);
    this.reaper = setInterval(reap, REAP_EVERY_MS);
    this.reaper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.reaper);
  }

  async insert(sql: Sql, draft: AuditDraft): Promise<AuditEvent> {
    const rows = await sql.query(
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
    return { ...draft, seq: Number(rows[0].seq), at: new Date(rows[0].at).toISOString() };
  }

  /** Writes a row on its own (no change to go with it) and publishes it. */
  async record(draft: AuditDraft): Promise<AuditEvent | null> {
    try {
      const event = await this.insert(await this.store.db(), draft);
      this.publish(event);
      return event;
    } catch (err) {
      this.lost.inc();
      this.logger.warn(`audit row for ${draft.action} not written: ${(err as Error).message}`);
      return null;
    }
  }

  /** After the handler: the row it committed is published; if it wrote none, one is written now. */
  async succeeded(note: AuditNote): Promise<void> {
    if (note.written) this.publish(note.written);
    else await this.record({ ...note.draft, outcome: outcomeOf(note.draft.status) });
  }

  /** The handler failed: its transaction (and any row in it) rolled back; the failure is recorded. */
  async failed(note: AuditNote, error: unknown): Promise<void> {
    const { status, code } = describeFailure(error);
    await this.record({ ...note.draft, outcome: outcomeOf(status), status, code });
  }

  /** A change the access guard refused (no permission, cross-site). */
  async denied(context: ExecutionContext, req: StudioRequest, error: DomainError): Promise<void> {
    const action = this.reflector.get<string | undefined>(AUDIT_ACTION, context.getHandler()) ?? 'unknown';
    const clusterId = typeof req.params?.id === 'string' ? req.params.id : null;
    await this.record({
      ...draftFor(req, action, 403),
      clusterId: clusterId && /^[0-9a-f-]{36}$/i.test(clusterId) ? clusterId : null,
      outcome: 'denied',
      code: error.code,
    });
  }

  async page(query: AuditQuery): Promise<AuditPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (query.actor) add('actor_name = ?', query.actor);
    if (query.action) add('action = ?', query.action);
    if (query.clusterId) add('cluster_id = ?', query.clusterId);
    if (query.outcome) add('outcome = ?', query.outcome);
    if (query.from) add('at >= ?', query.from);
    if (query.to) add('at < ?', query.to);
    if (query.before) add('seq < ?', query.before);
    params.push(query.limit + 1);
    const rows: Record<string, unknown>[] = await (
      await this.store.db()
    ).query(
      `SELECT * FROM audit_event ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY seq DESC LIMIT $${params.length}`,
      params,
    );
    const items = rows.slice(0, query.limit).map(toEvent);
    return {
      items,
      nextBefore: rows.length > query.limit ? (items[items.length - 1]?.seq ?? null) : null,
    };
  }

  /** Rows older than the retention setting go; the only deletion the append-only trigger allows. */
  async reap(): Promise<number> {
    const days = this.settings.get('artemis-studio.audit.retention-days');
    return (await this.store.db()).transaction(async (tx) => {
      // The append-only trigger lets this transaction, and only it, delete.
      await tx.query(`SET LOCAL studio.audit_reaper = 'on'`);
      const [, deleted] = await tx.query(`DELETE FROM audit_event WHERE at < now() - $1 * interval '1 day'`, [
        days,
      ]);
      return deleted as number;
    });
  }

  private publish(event: AuditEvent): void {
    this.bus.publish(channels.audit, subjects.audit(event.action), event);
  }
}

function toEvent(r: Record<string, unknown>): AuditEvent {
  return {
    seq: Number(r.seq),
    at: new Date(r.at as string).toISOString(),
    actor: { kind: r.actor_kind as string, id: (r.actor_id as string) ?? null, name: r.actor_name as string },
    address: (r.address as string) ?? null,
    role: (r.role as AuditEvent['role']) ?? null,
    action: r.action as string,
    clusterId: (r.cluster_id as string) ?? null,
    target: (r.target as string) ?? null,
    outcome: r.outcome as AuditEvent['outcome'],
    status: r.status as number,
    code: (r.code as string) ?? null,
    requestId: (r.request_id as string) ?? null,
    detail: (r.detail as Record<string, unknown>) ?? {},
  };
}
