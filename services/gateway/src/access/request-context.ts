import type { Role } from '@artemis-studio/contracts';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuditNote } from '../audit/audit-note';
import type { Principal } from './principal';

/** What the access guard and the audit interceptor learn about a request, for its handler. */
export interface StudioRequest extends Request {
  principal?: Principal;
  /** The role that let a cluster-scoped request through, for the audit trail. */
  roleUsed?: Role | null;
  auditNote?: AuditNote;
}

/** `@CurrentPrincipal() principal: Principal` in a handler behind the access guard. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<StudioRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route the access guard did not authenticate');
  return principal;
});

export const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The id the platform gave the request (X-Request-Id). */
export const requestIdOf = (req: Request): string | null => {
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' ? id : null;
};

export const clientAddress = (req: Request): string | null => req.ip ?? req.socket.remoteAddress ?? null;
