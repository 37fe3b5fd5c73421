import { protectionOf, REASON_HEADER, REASON_MAX } from '@artemis-studio/contracts';
import { Injectable } from '@nestjs/common';
import { roleOfPrincipal, type Principal } from '../access/principal';
import type { RegisteredCluster } from '../access/registered-cluster';
import type { AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { ProtectionsRepository } from './protections.repository';

/** What is asked of a queue or address: to take its messages (a purge, a deletion of them), or to delete it. */
type GuardedAction = 'purge' | 'delete';

interface GateRequest {
  cluster: RegisteredCluster;
  principal: Principal;
  kind: 'queue' | 'address';
  name: string;
  action: GuardedAction;
  /** The `X-Studio-Reason` header as it came. */
  reason: string | undefined;
  /** The request's audit row: a refusal is recorded against the queue or address it was about. */
  note: AuditNote;
}

/**
 * The protection in front of a destructive action (issue 62, item 2): on a protected queue or
 * address, deleting it is refused, and taking its messages needs an administrator of the cluster
 * and a reason. Answers the reason to keep in the audit trail; nothing when unprotected.
 */
@Injectable()
export class ProtectionGate {
  constructor(private readonly protections: ProtectionsRepository) {}

  /** Before a purge or a deletion of a queue's messages: the reason to audit, when it is protected. */
  takingMessages(
    cluster: RegisteredCluster,
    principal: Principal,
    queue: string,
    reason: string | undefined,
    note: AuditNote,
  ): Promise<{ reason?: string }> {
    return this.check({ cluster, principal, kind: 'queue', name: queue, action: 'purge', reason, note });
  }

  /** Before deleting a queue or an address: refused while it is protected. */
  async deleting(
    cluster: RegisteredCluster,
    principal: Principal,
    kind: GateRequest['kind'],
    name: string,
    note: AuditNote,
  ): Promise<void> {
    await this.check({ cluster, principal, kind, name, action: 'delete', reason: undefined, note });
  }

  private async check(request: GateRequest): Promise<{ reason?: string }> {
    const { cluster, principal, kind, name, action, reason, note } = request;
    note.describe({ clusterId: cluster.id, target: name });
    const protection = protectionOf(await this.protections.all(cluster.id), name);
    if (!protection) return {};
    const covered = `${kind} ${name} is protected ('${protection.pattern}': ${protection.reason})`;
    if (action === 'delete')
      throw new DomainError(
        'conflict',
        'SUBJECT_PROTECTED',
        `${covered}: an administrator lifts the protection in the cluster's settings before it can be deleted`,
      );
    if (roleOfPrincipal(principal, cluster.name) !== 'admin')
      throw new DomainError(
        'forbidden',
        'PROTECTED_NEEDS_ADMIN',
        `${covered}: only an administrator of the cluster may take its messages`,
      );
    const given = headerText(reason ?? '').trim();
    if (!given || given.length > REASON_MAX)
      throw new DomainError(
        'invalid',
        'REASON_REQUIRED',
        `${covered}: say why in the ${REASON_HEADER} header (at most ${REASON_MAX} characters)`,
      );
    return { reason: given };
  }
}

/**
 * A header carries Latin-1 only, so the console sends the reason percent-encoded (UTF-8): "réinjecté"
 * would otherwise fail in the browser before it is sent. A reason that is not valid
 * percent-encoding ("50% replayed", typed with curl) is taken as it came.
 */
function headerText(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
