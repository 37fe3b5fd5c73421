import { atLeast, isAdministrator, roleOn, type Me, type Role } from '@artemis-studio/contracts';

/**
 * What the signed-in principal may do, by the same rules the gateway enforces (contracts'
 * access-rules): the console hides or disables what would be refused, and says why.
 */
export interface Abilities {
  /** Settings, users, tokens, grants and the audit trail. */
  administer: boolean;
  /** Register a cluster (admin on some clusters; the name must fall inside them). */
  register: boolean;
  roleOn(clusterName: string): Role | null;
  /** Why an action needing `role` on this cluster is not offered, or null when it is. */
  refusal(clusterName: string, role: Role): string | null;
}

export function abilitiesOf(me: Me | null | undefined): Abilities {
  const grants = me?.grants ?? [];
  return {
    administer: isAdministrator(grants),
    register: grants.some((g) => g.role === 'admin'),
    roleOn: (name) => roleOn(grants, name),
    refusal: (name, role) => {
      const held = roleOn(grants, name);
      return atLeast(held, role)
        ? null
        : `needs the ${role} role on ${name}; you are ${held ?? 'not granted'} here`;
    },
  };
}

export const NOT_ADMINISTRATOR = 'needs the admin role on every cluster';
