import { atLeast, type MaskingRules } from '@artemis-studio/contracts';
import { Injectable } from '@nestjs/common';
import { roleOfPrincipal, type Principal } from '../access/principal';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';

/**
 * Who may read what is inside a cluster's messages: its `messageBodies` role (operator unless an
 * administrator opened it to viewers or closed it to all but admins). A body filter reads the
 * contents too, so it asks the same question, and takes the cluster's masking rules to the owner
 * (ADR-0038): a count of what a filter matched must not tell what masking hides.
 */
@Injectable()
export class MessageBodyAccess {
  constructor(private readonly clusters: ClusterRepository) {}

  /** The cluster's id, name and masking rules; forbidden without the role, saying which and why. */
  async require(clusterId: string, principal: Principal, doing: string) {
    const access = await this.clusters.messageAccess(clusterId);
    if (!atLeast(roleOfPrincipal(principal, access.name), access.messageBodies))
      throw new DomainError(
        'forbidden',
        'FORBIDDEN',
        `${doing} on this cluster needs the ${access.messageBodies} role (message contents are often personal data)`,
      );
    return access;
  }

  /** With a body filter, the masking rules the owner applies before it reads; none without one. */
  async forBodyFilter(
    clusterId: string,
    principal: Principal,
    bodyFilter: unknown,
  ): Promise<{ masking?: MaskingRules }> {
    if (!bodyFilter) return {};
    const { masking } = await this.require(clusterId, principal, 'a body filter (it reads message contents)');
    return { masking };
  }
}
