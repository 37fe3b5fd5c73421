import { weakerRole, type RoleGrant } from '@artemis-studio/contracts';

/**
 * What an API token may do: never beyond its own grant, nor beyond its owner's grants today (a
 * token outlives nothing its owner loses). One grant per owner grant, each cut down to the token's
 * role, on the clusters both cover.
 */
export function capToToken(owner: readonly RoleGrant[], token: RoleGrant): RoleGrant[] {
  const capped: RoleGrant[] = [];
  for (const grant of owner) {
    const role = weakerRole(grant.role, token.role);
    if (token.clusters === '*') capped.push({ role, clusters: grant.clusters });
    else if (grant.clusters === '*') capped.push({ role, clusters: token.clusters });
    else if (grant.clusters === token.clusters) capped.push({ role, clusters: grant.clusters });
    // Two different patterns: the token's pattern stands only for names the owner's also matches,
    // which a pattern cannot express, so such a pair grants nothing rather than too much.
  }
  return capped;
}
