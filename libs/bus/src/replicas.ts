import type { ServerInfo } from 'nats';

/** How many copies of each stream and bucket NATS keeps: a number, or `auto`. */
export type ReplicaSetting = number | 'auto';

/**
 * The replicas of every stream and KV bucket: as set, or by default 3 on a clustered server (a
 * node lost then loses no message and no lease) and 1 on a single one, which cannot keep more.
 */
export function replicasFor(setting: ReplicaSetting, server: ServerInfo | undefined): number {
  if (setting !== 'auto') return setting;
  return server?.cluster ? 3 : 1;
}
