import type { Me, Role } from '@artemis-studio/contracts';
import { isAdministrator, roleOn, type RoleGrant } from '@artemis-studio/contracts';

/** How a request proved who it is; what a stream re-checks while it stays open. */
export type Credential = { kind: 'session'; digest: Buffer } | { kind: 'token'; id: string };

/** Who is asking, and the grants in force for this request (a token's already cut to the token). */
export interface Principal {
  id: string;
  name: string;
  kind: Me['kind'];
  via: Me['via'];
  groups: string[];
  grants: RoleGrant[];
  credential: Credential | null;
}

/** A user, acting through a session or a token, with the grants in force for it. */
export function principalOf(
  user: { id: string; username: string; kind: 'local' | 'oidc' | 'service'; groups: string[] },
  via: 'session' | 'token',
  grants: RoleGrant[],
  credential: Credential | null,
): Principal {
  return { id: user.id, name: user.username, kind: user.kind, via, groups: user.groups, grants, credential };
}

export const roleOfPrincipal = (principal: Principal, clusterName: string): Role | null =>
  roleOn(principal.grants, clusterName);

export function describePrincipal(principal: Principal): Me {
  return {
    id: principal.id,
    name: principal.name,
    kind: principal.kind,
    via: principal.via,
    groups: principal.groups,
    grants: principal.grants,
    administrator: isAdministrator(principal.grants),
  };
}

/** `AUTH_MODE=none`: everyone is this, an administrator; the console says so on every screen. */
export const ANONYMOUS: Principal = {
  id: 'anonymous',
  name: 'anonymous',
  kind: 'anonymous',
  via: 'none',
  groups: [],
  grants: [{ role: 'admin', clusters: '*' }],
  credential: null,
};
