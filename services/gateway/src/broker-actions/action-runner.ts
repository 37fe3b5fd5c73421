import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { AuditNote } from '../audit/audit-note';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';
import { ActionRequestRepository, canonical } from './action-request.repository';
import { idempotencyKey, once } from './idempotency';

/** One change asked of a broker: what is recorded and kept under its key, and how it is carried out. */
export interface ActionRequest<T> {
  clusterId: string;
  /** The Idempotency-Key header as sent. */
  key: string | undefined;
  /** What the request asks, as compared when a key comes again, and audited. */
  request: Record<string, unknown>;
  /** Compared when a key comes again too, but never audited (a message's body). */
  compared?: Record<string, unknown>;
  target: string;
  note: AuditNote;
  act: () => Promise<T>;
  /** What the audit row keeps of the answer (never a message body). */
  audit: (result: T) => Record<string, unknown>;
}

/**
 * Every change to a broker passes here: audited with its target (before anything, so a refusal's
 * row names it too), refused on a read-only cluster, carried out once per idempotency key, and its
 * outcome added to the audit row.
 */
@Injectable()
export class ActionRunner {
  constructor(
    private readonly clusters: ClusterRepository,
    private readonly requests: ActionRequestRepository,
  ) {}

  async run<T>({
    clusterId,
    key,
    request,
    compared,
    target,
    note,
    act,
    audit,
  }: ActionRequest<T>): Promise<T> {
    note.describe({ clusterId, target, detail: request });
    const checkedKey = idempotencyKey(key);
    if (await this.clusters.readOnly(clusterId))
      throw new DomainError(
        'forbidden',
        'CLUSTER_READ_ONLY',
        'this cluster is read-only: every action on its brokers is refused (an administrator can change that in its settings)',
      );
    // What is compared but not audited is kept as a digest: a message body does not sit in PostgreSQL.
    const kept = compared
      ? { ...request, digest: createHash('sha256').update(canonical(compared)).digest('hex') }
      : request;
    let replayed = false;
    const result = await once(this.requests, clusterId, checkedKey, kept, act, () => (replayed = true));
    // A retried request is audited too, saying it did nothing: two rows of 25 purged read as 50.
    note.describe({ detail: { ...request, ...audit(result), ...(replayed ? { replayed: true } : {}) } });
    return result;
  }
}
