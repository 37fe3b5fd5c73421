import type { Abilities } from '../../lib/access/abilities';

/** Why an action on this cluster's brokers is not offered (the role, or read-only mode), or null. */
export const actionRefusal = (can: Abilities, cluster: { name: string; readOnly: boolean }): string | null =>
  can.refusal(cluster.name, 'operator') ??
  (cluster.readOnly ? 'this cluster is read-only: an administrator can change that in its settings' : null);
