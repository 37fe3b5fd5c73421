import type { Abilities } from '../../lib/access/abilities';

type Cluster = { name: string; readOnly: boolean };

const READ_ONLY = 'this cluster is read-only: an administrator can change that in its settings';

/** Why an action on this cluster's brokers is not offered (the role, or read-only mode), or null. */
export const actionRefusal = (can: Abilities, cluster: Cluster): string | null =>
  can.refusal(cluster.name, 'operator') ?? (cluster.readOnly ? READ_ONLY : null);

/** Why making or deleting an address is not offered: every queue hangs from one, so it is an administrator's. */
export const addressRefusal = (can: Abilities, cluster: Cluster): string | null =>
  can.refusal(cluster.name, 'admin') ?? (cluster.readOnly ? READ_ONLY : null);
