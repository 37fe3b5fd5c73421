import type { AuditEvent, Role } from '@artemis-studio/contracts';
import type { Sql } from '@artemis-studio/db';
import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuditDraft } from './audit.repository';

/** `@Audited('cluster.update')`: the action a mutating route is recorded as. Every one declares it. */
export const AUDIT_ACTION = 'studio:audit-action';
export const Audited = (action: string) => SetMetadata(AUDIT_ACTION, action);

/**
 * What the audit trail needs to know of who made a request: the principal and the role the access
 * guard found for it. Structural, so audit depends on no part of access.
 */
export interface AuditedRequest extends Request {
  principal?: { id: string; name: string; kind: string; via: string };
  roleUsed?: Role | null;
  auditNote?: AuditNote;
}

export interface AuditWriter {
  insert(draft: AuditDraft, sql?: Sql): Promise<AuditEvent>;
}

/**
 * One mutating request's audit row in the making. The handler fills in what only it knows (the
 * target, the cluster, the actor of a sign-in) and writes the row inside its own transaction with
 * `within`, so the change and its record commit or roll back together; whatever the handler did
 * not write, the interceptor writes when the request ends, success or failure: exactly one row.
 */
export class AuditNote {
  written: AuditEvent | null = null;

  constructor(
    readonly draft: AuditDraft,
    private readonly writer: AuditWriter,
  ) {}

  describe(change: Partial<Pick<AuditDraft, 'target' | 'clusterId' | 'detail' | 'actor' | 'role'>>): void {
    Object.assign(this.draft, change);
  }

  /** Writes the success row with the change, in its transaction. */
  async within(sql: Sql, change: Parameters<AuditNote['describe']>[0] = {}): Promise<void> {
    this.describe(change);
    this.written = await this.writer.insert({ ...this.draft, outcome: 'success' }, sql);
  }
}

/** `@AuditRecord() note: AuditNote` in an audited handler. */
export const AuditRecord = createParamDecorator((_: unknown, ctx: ExecutionContext): AuditNote => {
  const note = ctx.switchToHttp().getRequest<AuditedRequest>().auditNote;
  if (!note) throw new Error('AuditRecord used on a route without @Audited');
  return note;
});

/** The id the platform gave the request (X-Request-Id). */
const requestIdOf = (req: Request): string | null => {
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' ? id : null;
};

export function draftFor(req: AuditedRequest, action: string, status: number): AuditDraft {
  const principal = req.principal;
  return {
    actor: principal
      ? { kind: principal.via === 'token' ? 'token' : principal.kind, id: principal.id, name: principal.name }
      : { kind: 'anonymous', id: null, name: 'anonymous' },
    address: req.ip ?? null,
    role: req.roleUsed ?? null,
    action,
    clusterId: null,
    target: null,
    outcome: 'success',
    status,
    code: null,
    requestId: requestIdOf(req),
    detail: {},
  };
}
