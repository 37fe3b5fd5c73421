import {
  CallHandler,
  ExecutionContext,
  HttpStatus,
  Injectable,
  Logger,
  NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { catchError, from, mergeMap, throwError, type Observable } from 'rxjs';
import { MUTATING_METHODS } from '../access/request-context';
import { AUDIT_ACTION, AuditNote, draftFor, type AuditedRequest } from './audit-note';
import { AuditTrail } from './audit-trail';
import { AuditRepository } from './audit.repository';

/**
 * Leaves exactly one audit row per mutating request that got past the access guard: the one the
 * handler committed with its change, or, when it wrote none or failed, one written here.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly reflector: Reflector,
    private readonly trail: AuditTrail,
    private readonly rows: AuditRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<AuditedRequest>();
    if (!MUTATING_METHODS.has(req.method)) return next.handle();
    const handler = context.getHandler();
    const action = this.reflector.get<string | undefined>(AUDIT_ACTION, handler);
    if (!action) {
      this.logger.error(
        `${req.method} ${req.route?.path ?? req.path} changes something but declares no audit action`,
      );
      return next.handle();
    }
    const status =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, handler) ??
      (req.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
    const note = new AuditNote(draftFor(req, action, status), this.rows);
    req.auditNote = note;
    return next.handle().pipe(
      mergeMap((value) => from(this.trail.succeeded(note).then(() => value))),
      catchError((error: unknown) =>
        from(this.trail.failed(note, error)).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }
}
