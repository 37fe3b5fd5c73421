import type { HandlersOf } from '@artemis-studio/bus';
import type { ownerRpcs } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import type { OwnedCluster } from './owned-cluster';

export type OwnerRpcName = keyof typeof ownerRpcs;
export type OwnerRpcHandlers = HandlersOf<typeof ownerRpcs>;

/** How a part's work for one cluster ends, changes and is let go of. */
interface PartLifecycle {
  /** Settles before the cluster's owner RPCs are served (work a previous owner left to end first). */
  readonly ready?: Promise<unknown>;
  /** The registration read again, its revision unchanged: what may change without a restart. */
  refresh?(target: ClusterTarget): void;
  /** The replica lets the cluster go: stop at once (the parts stop in the reverse of their order). */
  stop?(): void;
  /** After every part stopped; `deleted` when the cluster is no longer registered at all. */
  released?(deleted: boolean): Promise<void> | void;
}

/** What a part runs for one cluster while this replica owns it, with the owner RPCs it answers. */
export type PartRun<S extends OwnerRpcName = never> = PartLifecycle &
  ([S] extends [never]
    ? { readonly handlers?: undefined }
    : { readonly handlers: Pick<OwnerRpcHandlers, S> });

/**
 * What one scraper feature runs for each cluster this replica owns (ADR-0001, parts). Ownership
 * holds the leases and drives the parts it is given; it knows no feature.
 */
export interface ClusterPart<S extends OwnerRpcName = never> {
  /** The owner RPCs this part answers (`ownerRpcs`): each is served by exactly one part. */
  readonly serves: readonly S[];
  /** What the part needs before its first cluster (buckets, the database), connected once. */
  connect?(): Promise<void>;
  start(cluster: OwnedCluster): PartRun<S>;
}

/** Any part, as ownership holds them: whichever owner RPCs it answers. */
export interface AnyClusterPart {
  readonly serves: readonly OwnerRpcName[];
  connect?(): Promise<void>;
  start(cluster: OwnedCluster): PartLifecycle & { readonly handlers?: Partial<OwnerRpcHandlers> };
}

/** The parts, in their start order (the scraper's wiring, app.module.ts). */
export const CLUSTER_PARTS = Symbol('CLUSTER_PARTS');
