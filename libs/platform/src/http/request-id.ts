import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';

/** A caller's own id is kept when it looks like one (a proxy's or a client's trace id); else a new one. */
const ACCEPTABLE = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Every request gets an id, answered in `X-Request-Id` and written into its log lines (and, in
 * the gateway, its audit row), so a user's report, a log line and an audit row can be matched.
 */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.header('x-request-id');
  const id = given !== undefined && ACCEPTABLE.test(given) ? given : randomUUID();
  (req as { id?: unknown }).id = id;
  res.setHeader('X-Request-Id', id);
  next();
}
