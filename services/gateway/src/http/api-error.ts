import { z } from 'zod';

/** An HTTP error with the API's JSON shape: `{"error":{"code","message"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

/** Validates input against its contract schema; anything else is a 400 that names each problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({
    path: i.path.join('.') || '(body)',
    message: i.message,
  }));
  throw new ApiError(
    400,
    'VALIDATION_FAILED',
    `invalid ${what}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
    details,
  );
}

export function parseClusterId(value: string): string {
  if (!z.uuid().safeParse(value).success)
    throw new ApiError(400, 'INVALID_ID', `'${value.slice(0, 64)}' is not a cluster id (a UUID)`);
  return value;
}

export const clusterNotFound = (id: string) => new ApiError(404, 'CLUSTER_NOT_FOUND', `no cluster ${id}`);
