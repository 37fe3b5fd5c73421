import { DomainError } from '../domain-error';
import type { ActionRequestRepository } from './action-request.repository';

/** An Idempotency-Key as sent: printable, bounded (a UUID is the usual one). */
const KEY = /^[A-Za-z0-9._:-]{8,200}$/;

/** The request's Idempotency-Key, required on every action that changes a broker. */
export function idempotencyKey(header: string | undefined): string {
  if (header === undefined)
    throw new DomainError(
      'invalid',
      'IDEMPOTENCY_KEY_REQUIRED',
      'an action needs an Idempotency-Key header (a new UUID per action; the same one when retrying it)',
    );
  if (!KEY.test(header))
    throw new DomainError(
      'invalid',
      'IDEMPOTENCY_KEY_INVALID',
      'Idempotency-Key must be 8 to 200 letters, digits or ._:-',
    );
  return header;
}

/**
 * Whether a failure leaves the broker as it was: refused before anything ran (no owner, busy,
 * refused, not there, invalid). A timeout or an unexpected failure may have acted, and is not.
 */
const changedNothing = (err: unknown): boolean =>
  err instanceof DomainError &&
  ['invalid', 'forbidden', 'not-found', 'conflict', 'locked', 'bad-gateway', 'unavailable'].includes(
    err.kind,
  );

/**
 * Runs `act` once per idempotency key: a retry of an answered request gets the first answer, one
 * of a request still running is told so, and a key reused for another request is refused. A
 * failure that changed nothing frees the key, so the retry acts; one whose outcome is unknown
 * (a timeout) is answered so, never acted on twice.
 */
export async function once<T>(
  requests: Pick<ActionRequestRepository, 'claim' | 'answer' | 'forget'>,
  clusterId: string,
  key: string,
  request: object,
  act: () => Promise<T>,
  /** Told when the answer is the first request's, repeated: nothing was done this time. */
  replayed: () => void = () => undefined,
): Promise<T> {
  const earlier = await requests.claim(clusterId, key, request);
  switch (earlier.state) {
    case 'running':
      throw new DomainError(
        'conflict',
        'ACTION_IN_PROGRESS',
        'the action with this Idempotency-Key is still running; retry with the same key to get its outcome',
        undefined,
        5,
      );
    case 'other-request':
      throw new DomainError(
        'invalid',
        'IDEMPOTENCY_KEY_REUSED',
        'this Idempotency-Key was sent with another request; a new action needs a new key',
      );
    case 'abandoned':
      throw new DomainError(
        'conflict',
        'ACTION_OUTCOME_UNKNOWN',
        'the action with this Idempotency-Key was started and never answered (its gateway stopped): it was not repeated. Look at the queue before acting again with a new key.',
      );
    case 'answered':
      if (earlier.status < 300) {
        replayed();
        return earlier.response as T;
      }
      throw new DomainError(
        'conflict',
        'ACTION_OUTCOME_UNKNOWN',
        `the action with this Idempotency-Key did not complete in time and was not repeated: ${String((earlier.response as { message?: string })?.message ?? '')} Look at the queue before acting again with a new key.`,
      );
    case 'new':
      break;
  }
  try {
    const result = await act();
    await requests.answer(clusterId, key, 200, result);
    return result;
  } catch (err) {
    if (changedNothing(err)) await requests.forget(clusterId, key).catch(() => undefined);
    else
      await requests.answer(clusterId, key, 504, { message: (err as Error).message }).catch(() => undefined);
    throw err;
  }
}
