import { ErrorBodySchema } from '@artemis-studio/contracts';
import type { z } from 'zod';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** GETs a gateway resource and validates it against its contract schema. */
export async function getJson<S extends z.ZodType>(
  path: string,
  schema: S,
  fetchImpl: typeof fetch = fetch,
): Promise<z.infer<S>> {
  const response = await fetchImpl(`/api/v1${path}`, { headers: { Accept: 'application/json' } });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = ErrorBodySchema.safeParse(body);
    throw error.success
      ? new ApiError(response.status, error.data.error.code, error.data.error.message)
      : new ApiError(response.status, 'HTTP_ERROR', `the gateway answered ${response.status}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiError(response.status, 'CONTRACT_MISMATCH', `unexpected response from ${path}`);
  return parsed.data;
}
