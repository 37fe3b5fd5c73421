import type { Role } from '@artemis-studio/contracts';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from './principal';

/** What the access guard learns about a request, for its handler (and the audit trail). */
export interface StudioRequest extends Request {
  principal?: Principal;
  /** The role that let a cluster-scoped request through, for the audit trail. */
  roleUsed?: Role | null;
  /** The cluster the guard found registered under the request's cluster id, and authorised on. */
  cluster?: { id: string; name: string };
}

/** `@CurrentPrincipal() principal: Principal` in a handler behind the access guard. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<StudioRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route the access guard did not authenticate');
  return principal;
});

export const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const clientAddress = (req: Request): string | null => req.ip ?? req.socket.remoteAddress ?? null;
