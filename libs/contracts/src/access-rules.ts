import type { Role } from './http/access';

/**
 * How grants decide, shared by the gateway (which enforces) and the console (which hides what a
 * role may not do): one definition, so the two cannot disagree.
 */
export interface RoleGrant {
  role: Role;
  clusters: string;
}

const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };

export const atLeast = (role: Role | null, wanted: Role): boolean =>
  role !== null && RANK[role] >= RANK[wanted];

export const weakerRole = (a: Role, b: Role): Role => (RANK[a] <= RANK[b] ? a : b);

/**
 * A name pattern where `*` matches any run of characters and everything else itself, the whole name
 * matching: compiled once, for tests against many names (grants, alert rules over queues).
 */
export function globMatcher(pattern: string): (name: string) => boolean {
  if (pattern === '*') return () => true;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const regex = new RegExp(`^${source}$`, 's');
  return (name) => regex.test(name);
}

/** `*` matches any run of characters, everything else itself; the whole name must match. */
export const clusterPatternMatches = (pattern: string, clusterName: string): boolean =>
  globMatcher(pattern)(clusterName);

/** The strongest role any grant gives on this cluster, or null when none matches. */
export function roleOn(grants: readonly RoleGrant[], clusterName: string): Role | null {
  let best: Role | null = null;
  for (const grant of grants) {
    if (!clusterPatternMatches(grant.clusters, clusterName)) continue;
    if (best === null || RANK[grant.role] > RANK[best]) best = grant.role;
  }
  return best;
}

/** Admin on every cluster: what settings, users, tokens, grants and the audit trail need. */
export const isAdministrator = (grants: readonly RoleGrant[]): boolean =>
  grants.some((g) => g.role === 'admin' && g.clusters === '*');
