/** What kind of failure, in the product's terms; only the HTTP filter turns a kind into a status. */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'locked'
  | 'rate-limited'
  | 'bad-gateway'
  | 'unavailable'
  | 'timeout';

export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * A failure the caller can act on, with a stable `code` (the API's `error.code`) and a message
 * that says what to do. Thrown by repositories and controllers alike; none of them knows HTTP.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly details?: FieldProblem[],
    /** For `unavailable` and `rate-limited`: when to try again (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const clusterNotFound = (id: string) =>
  new DomainError('not-found', 'CLUSTER_NOT_FOUND', `no cluster ${id}`);

/**
 * Runs a write, turning a violation of the unique constraint named into the conflict given: a name
 * taken is a conflict whichever replica or request won the race (the constraint decides).
 */
export async function uniquely<T>(
  write: () => Promise<T>,
  constraint: string,
  conflict: () => DomainError,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as { driverError?: { constraint?: string } }).driverError?.constraint === constraint)
      throw conflict();
    throw err;
  }
}
