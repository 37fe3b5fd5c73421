import { RpcError } from '@artemis-studio/bus';
import { DatabaseUnavailableError } from '@artemis-studio/platform';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError, type DomainErrorKind } from '../domain-error';

const STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  locked: 423,
  'rate-limited': 429,
  'bad-gateway': 502,
  unavailable: 503,
  timeout: 504,
};

/**
 * Every failure leaves the gateway as the one JSON error shape, `{"error":{"code","message"}}`,
 * with the status its kind calls for: domain errors by kind, bus and body-parser failures by what
 * they say, anything else a 500 that is logged.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { status, code, message, details } = describeFailure(error);
    if (error instanceof DomainError && error.retryAfterSeconds !== undefined && !res.headersSent)
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
    if (status >= 500 && status !== 503 && !(error instanceof DomainError))
      this.logger.error(`${code}: ${(error as Error)?.stack ?? error}`);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(status).json({ error: { code, message, ...(details ? { details } : {}) } });
  }
}

export function describeFailure(error: unknown): {
  status: number;
  code: string;
  message: string;
  details?: unknown;
} {
  if (error instanceof DomainError)
    return { status: STATUS[error.kind], code: error.code, message: error.message, details: error.details };
  if (error instanceof DatabaseUnavailableError)
    return { status: 503, code: 'DATABASE_UNAVAILABLE', message: 'PostgreSQL is not available' };
  if (error instanceof RpcError) {
    if (error.code === 404) return { status: 404, code: 'NOT_FOUND', message: error.message };
    if (error.code >= 400 && error.code < 500)
      return { status: error.code, code: 'BAD_REQUEST', message: error.message };
    return { status: 503, code: 'DEPENDENCY_UNAVAILABLE', message: error.message };
  }
  // body-parser: an oversized or unparsable body never reaches a handler.
  const bodyError = error as { type?: string; status?: number };
  if (bodyError?.type === 'entity.too.large')
    return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' };
  if (bodyError?.type === 'entity.parse.failed')
    return { status: 400, code: 'MALFORMED_JSON', message: 'the request body is not valid JSON' };
  if (error instanceof HttpException) {
    const status = error.getStatus();
    // Nest wraps body-parser's parse failure in a plain 400.
    if (status === 400 && /JSON|Unexpected token|Unexpected end/.test(error.message)) {
      return { status: 400, code: 'MALFORMED_JSON', message: 'the request body is not valid JSON' };
    }
    const cause = error.getResponse() as { message?: string } | string;
    const message = typeof cause === 'string' ? cause : (cause.message ?? error.message);
    const code = status === 404 ? 'NOT_FOUND' : status === 413 ? 'PAYLOAD_TOO_LARGE' : `HTTP_${status}`;
    return { status, code, message: String(message) };
  }
  // PostgreSQL refusing text it cannot store (a NUL, an invalid byte sequence) that reached it
  // through a path parameter: bad input, not a fault of ours.
  const pgCode =
    (error as { driverError?: { code?: string }; code?: string })?.driverError?.code ??
    (error as { code?: string })?.code;
  if (pgCode === '22021' || pgCode === '22P05')
    return {
      status: 400,
      code: 'INVALID_TEXT',
      message: 'the request holds text that cannot be stored (a NUL character?)',
    };
  if (isDatabaseDown(error))
    return { status: 503, code: 'DATABASE_UNAVAILABLE', message: 'PostgreSQL is not available' };
  return { status: 500, code: 'INTERNAL', message: 'internal error' };
}

/**
 * PostgreSQL refused, dropped or is too slow to give a connection: a 503 the client may retry,
 * not a 500. The fault suite saw the last two as 500s: a reset connection, and node-postgres's
 * pool timing out ("timeout exceeded when trying to connect") while the database was overloaded.
 */
function isDatabaseDown(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return /ECONNREFUSED|ETIMEDOUT|ECONNRESET|Connection terminated|timeout exceeded when trying to connect|DataSource is not initialized|57P01/.test(
    `${e?.code} ${e?.message}`,
  );
}
