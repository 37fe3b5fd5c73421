import { Bus } from '@artemis-studio/bus';
import { channels, subjects, type AuditEvent } from '@artemis-studio/contracts';
import { BUS, DatabaseService, SettingsService } from '@artemis-studio/platform';
import { ExecutionContext, Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Counter, Registry } from 'prom-client';
import type { AccessRefusals } from '../access/access-refusals';
import type { DomainError } from '../domain-error';
import { describeFailure } from '../http/error.filter';
import { AUDIT_ACTION, draftFor, type AuditedRequest, type AuditNote } from './audit-note';
import { AuditRepository, type AuditDraft } from './audit.repository';

const REAP_EVERY_MS = 60 * 60_000;

const outcomeOf = (status: number): AuditEvent['outcome'] =>
  status < 400 ? 'success' : status === 401 || status === 403 || status === 429 ? 'denied' : 'failure';

/**
 * The audit trail: append-only rows in `audit_event` (the record), each published on
 * `studio.v1.audit.<action>` once committed (for other tools; at most once, the table is the truth).
 */
@Injectable()
export class AuditTrail implements AccessRefusals, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Audit');
  private readonly lost: Counter;
  private reaper?: NodeJS.Timeout;

  constructor(
    private readonly rows: AuditRepository,
    private readonly database: DatabaseService,
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
    const reap = () =>
      void this.rows.reap(this.settings.get('artemis-studio.audit.retention-days')).catch(() => undefined);
    void this.database.whenReady().then(reap);
    this.reaper = setInterval(reap, REAP_EVERY_MS);
    this.reaper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.reaper);
  }

  /** Writes a row on its own (no change to go with it) and publishes it. */
  async record(draft: AuditDraft): Promise<AuditEvent | null> {
    try {
      const event = await this.rows.insert(draft);
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
  async refused(context: ExecutionContext, req: AuditedRequest, error: DomainError): Promise<void> {
    const action = this.reflector.get<string | undefined>(AUDIT_ACTION, context.getHandler()) ?? 'unknown';
    const clusterId = typeof req.params?.id === 'string' ? req.params.id : null;
    await this.record({
      ...draftFor(req, action, 403),
      clusterId: clusterId && /^[0-9a-f-]{36}$/i.test(clusterId) ? clusterId : null,
      outcome: 'denied',
      code: error.code,
    });
  }

  private publish(event: AuditEvent): void {
    this.bus.publish(channels.audit, subjects.audit(event.action), event);
  }
}
