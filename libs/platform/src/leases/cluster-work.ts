import type { ClusterTarget } from '@artemis-studio/db';
import type { ClusterLeases } from './cluster-leases';
import type { ReplicaMembership } from './replica-membership';

/** What a service runs for a cluster it owns. */
export interface ClusterWork {
  readonly target: ClusterTarget;
  stop(): void | Promise<void>;
  /** The registration read again, its revision unchanged: what may change without a restart. */
  refresh?(target: ClusterTarget): void;
}

export interface OwnedClustersOptions<W extends ClusterWork> {
  leases: ClusterLeases;
  /** The registered clusters, read at every renewal: registrations are picked up without a restart. */
  clusters(): Promise<ClusterTarget[]>;
  start(target: ClusterTarget): W;
  /** After a cluster's work stopped: `deleted` when it is no longer registered at all. */
  released?(clusterId: string, deleted: boolean, work: W): Promise<void>;
  log: { log(message: string): void; warn(message: string): void };
  /** Called once when this replica stops owning (stop or hand over): what watches for it ends. */
  stopping?(): void | Promise<void>;
  /** The replicas of the service alive now: with it each cluster goes to its preferred owner. */
  membership?: ReplicaMembership;
  /**
   * How one cluster is handed to its preferred owner while this replica runs on (a rebalance):
   * `before` readies the work, the lease goes, `after` waits for the successor, the work stops.
   * Without it the work stops first and the lease goes after, so it never runs twice.
   */
  handOver?: {
    before?(work: W): Promise<unknown>;
    after(work: W): Promise<unknown>;
  };
  /**
   * Whether NATS answers now. At a stop without it nothing is handed back: each step would wait out
   * its timeout, and a notifier stopped during an outage took 31 s, past its pod's grace period.
   */
  reachable?(): boolean;
}

/** What this replica owns, for /metrics and the logs. */
export interface Ownership {
  clusters: number;
  /** Their summed weight (nodes and queues, `clusterWeight`). */
  weight: number;
  /** Live replicas of the service as last read, this one included. */
  members: number;
}
