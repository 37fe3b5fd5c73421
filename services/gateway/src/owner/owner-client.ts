import { Bus, RpcError } from '@artemis-studio/bus';
import {
  OWNER_FAILURES,
  type ReplyOf,
  type RequestOf,
  type RpcDef,
  type ownerRpcs,
} from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';

type OwnerRpc = (typeof ownerRpcs)[keyof typeof ownerRpcs];

/** When a caller told "unowned" or "busy" is asked to try again (Retry-After). */
const RETRY_AFTER_SECONDS = { unowned: 5, busy: 10 } as const;

/**
 * The one way the gateway asks a cluster's owner (the scraper replica holding its lease) to do or
 * read something, and the one place its typed failures become HTTP: not owned (503), busy (423,
 * retryable), refused by the broker (409), not found (404), invalid (400), unreachable (502), no
 * answer in time (504). `what` says what was asked, in the operator's words, for the messages.
 */
@Injectable()
export class OwnerClient {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async ask<R extends OwnerRpc>(
    rpc: R,
    request: RequestOf<R> & { clusterId: string },
    what: string,
    timeoutMs = 10_000,
  ): Promise<ReplyOf<R>> {
    try {
      return (await this.bus.request(rpc as RpcDef, request, {
        key: request.clusterId,
        timeoutMs,
      })) as ReplyOf<R>;
    } catch (err) {
      if (err instanceof RpcError) throw ownerFailure(err, request.clusterId, what);
      throw err;
    }
  }
}

/** An owner RPC's failure as the API says it. Exported for its unit test. */
export function ownerFailure(err: RpcError, clusterId: string, what: string): DomainError {
  switch (err.code) {
    case OWNER_FAILURES.invalid:
      return new DomainError('invalid', 'INVALID_REQUEST', err.message);
    case OWNER_FAILURES.notFound:
      return new DomainError('not-found', 'NOT_ON_BROKER', err.message);
    case OWNER_FAILURES.refused:
      return new DomainError('conflict', 'BROKER_REFUSED', err.message);
    case OWNER_FAILURES.busy:
      return new DomainError('locked', 'BROKER_BUSY', err.message, undefined, RETRY_AFTER_SECONDS.busy);
    case OWNER_FAILURES.unreachable:
      return new DomainError('bad-gateway', 'BROKER_UNREACHABLE', `${what}: ${err.message}`);
    case 504:
      return new DomainError(
        'timeout',
        'OWNER_TIMEOUT',
        `${what}: the cluster's scraper did not answer in time; the broker may still be working on it, so look before you try again`,
      );
    case 503:
      return new DomainError(
        'unavailable',
        'SCRAPER_UNAVAILABLE',
        `no scraper owns cluster ${clusterId} right now; ${what} cannot be done until one takes it over`,
        undefined,
        RETRY_AFTER_SECONDS.unowned,
      );
    default:
      return new DomainError('unavailable', 'OWNER_FAILED', `${what}: ${err.message}`);
  }
}
