import type { ClusterTarget } from '@artemis-studio/db';
import type { NodeTierB } from './tier-b';

/** A node as its last tier-A poll saw it, named as registered. */
export interface NodeFact {
  name: string;
  reachable: boolean;
  role: 'live' | 'backup' | 'unknown';
  replicaSync: boolean | null;
  diskUsage: number | null;
  /** The usage past which the broker blocks producers (`max-disk-usage`); null without one. */
  diskLimit: number | null;
  memoryBytes: number | null;
  memoryLimitBytes: number | null;
  /** When it last became live or backup, as the observations saw it; null when not seen to change. */
  roleChangedAt: Date | null;
}

/** What an observer needs of the polled cluster: its id, its name for the log, its nodes' names. */
export type ObservedCluster = Pick<ClusterTarget, 'id' | 'name' | 'nodes'>;

/**
 * What each tick tells, once its figures are stored (alert evaluation, the Prometheus export).
 * Awaited within the tick, so a slow observer shows in the tick's stall warning; it never throws.
 */
export interface TickObserver {
  /** After tier A: every registered node as last seen. */
  afterNodes(cluster: ObservedCluster, nodes: readonly NodeFact[], now: Date): Promise<void> | void;
  /**
   * After tier B: what each live node's read gave, or the node that could not be read (a sum
   * without it would be wrong, so the tick's queue and address figures are unknown).
   */
  afterQueues(cluster: ObservedCluster, now: Date, read: TierBRead): Promise<void> | void;
}

/** What a tier-B tick read of the live nodes: all of them, or the first that could not be read. */
export type TierBRead = readonly NodeTierB[] | UnreadNode;

export interface UnreadNode {
  node: string;
  reason: string;
}

/** The nodes' reads, or null when one could not be read. */
export const nodesRead = (read: TierBRead): readonly NodeTierB[] | null => ('reason' in read ? null : read);

/** The tick observers, in the order they are told (the scraper's wiring, app.module.ts). */
export const TICK_OBSERVERS = Symbol('TICK_OBSERVERS');
