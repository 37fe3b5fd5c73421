import { ErrorBodySchema } from '@artemis-studio/contracts';
import type { z } from 'zod';

export interface FieldError {
  path: string;
  message: string;
}

/** The gateway's `{"error":{"code","message","details"}}`, or what stood in for it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldError[] = [],
  ) {
    super(message);
  }
}

async function call<S extends z.ZodType>(
  path: string,
  init: RequestInit,
  schema: S | undefined,
  fetchImpl: typeof fetch,
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetchImpl(`/api/v1${path}`, init);
  } catch {
    throw new ApiError(0, 'GATEWAY_UNREACHABLE', 'the gateway could not be reached');
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = ErrorBodySchema.safeParse(body);
    throw error.success
      ? new ApiError(
          response.status,
          error.data.error.code,
          error.data.error.message,
          error.data.error.details,
        )
      : new ApiError(response.status, 'HTTP_ERROR', `the gateway answered ${response.status}`);
  }
  if (!schema) return undefined as z.infer<S>;
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiError(response.status, 'CONTRACT_MISMATCH', `unexpected response from ${path}`);
  return parsed.data;
}

/** GETs a gateway resource and validates it against its contract schema. */
export function getJson<S extends z.ZodType>(
  path: string,
  schema: S,
  fetchImpl: typeof fetch = fetch,
): Promise<z.infer<S>> {
  return call(path, { headers: { Accept: 'application/json' } }, schema, fetchImpl);
}

/**
 * Sends a JSON body (POST, PATCH, PUT) or none (DELETE); validates the answer when a schema is given.
 * `headers` adds to the console's own (an action's Idempotency-Key).
 */
export function sendJson<S extends z.ZodType>(
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  schema?: S,
  fetchImpl: typeof fetch = fetch,
  headers: Record<string, string> = {},
): Promise<z.infer<S>> {
  return call(
    path,
    {
      method,
      headers: {
        ...headers,
        Accept: 'application/json',
        // The gateway refuses a change made with the session cookie without it: a cross-site form cannot send one.
        'X-Studio-Request': 'console',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    schema,
    fetchImpl,
  );
}

/** POSTs a body of text (an NDJSON file) as it is; validates the answer against its schema. */
export function sendText<S extends z.ZodType>(
  path: string,
  text: string,
  contentType: string,
  schema: S,
  headers: Record<string, string> = {},
): Promise<z.infer<S>> {
  return call(
    path,
    {
      method: 'POST',
      headers: {
        ...headers,
        Accept: 'application/json',
        'X-Studio-Request': 'console',
        'Content-Type': contentType,
      },
      body: text,
    },
    schema,
    fetch,
  );
}

/** One line for an error shown in place of data: the gateway's own words when it sent some. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
