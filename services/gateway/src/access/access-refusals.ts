import type { ExecutionContext } from '@nestjs/common';
import type { DomainError } from '../domain-error';
import type { StudioRequest } from './request-context';

/**
 * Told of every change the access guard refuses. The audit trail provides it (ADR-0009: a refused
 * change is recorded); access declares only this, so nothing in access depends on audit.
 */
export interface AccessRefusals {
  refused(context: ExecutionContext, req: StudioRequest, error: DomainError): Promise<void>;
}

export const ACCESS_REFUSALS = Symbol('ACCESS_REFUSALS');
