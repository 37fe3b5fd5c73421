import { readPolling, type PollingFacts } from '../rules/polling-reading';
import type { FleetFactsQueries } from './fleet-facts.queries';
import { evaluateScope, type ScopeEvaluationDeps } from './scope-evaluation';

/** Figures older than this many tier-A intervals, and than the floor, are a cluster nobody polls. */
const STALE_TICKS = 3;
const STALE_FLOOR_MS = 15_000;

/** The rule's condition on any subject: whether the replica stands in for the cluster's courier. */
const ANY_POLLER = { kind: 'studio-scraper-unowned', subjects: '*', threshold: null } as const;

type WatchedCluster = { id: string; name: string };

export interface FleetWatchDeps {
  evaluation: ScopeEvaluationDeps;
  facts: Pick<FleetFactsQueries, 'watched' | 'of'>;
  /** Send the cluster's notifications from this replica (true) or leave them to its owner (false). */
  standIn: (cluster: WatchedCluster, on: boolean) => void;
}

/**
 * The rule an owner cannot evaluate, since it is about the owner being there: whether some scraper
 * polls each cluster that has such a rule. Run by every replica; the alert rows keep one open alert
 * per rule and subject whoever writes first, so replicas reading the same facts agree. While nobody
 * polls a cluster, the replica also stands in for its courier, which would otherwise be the one
 * missing, and the alert saying so would reach no receiver.
 */
export class FleetWatch {
  private readonly standingIn = new Map<string, WatchedCluster>();

  constructor(private readonly deps: FleetWatchDeps) {}

  async round(now: Date): Promise<void> {
    const watched = await this.deps.facts.watched();
    const staleAfterMs = Math.max(STALE_TICKS * this.deps.evaluation.intervals().tierAMs, STALE_FLOOR_MS);
    let facts: Map<string, PollingFacts> | null = null;
    let unknown: string | undefined;
    try {
      facts = await this.deps.facts.of(
        watched.map((c) => c.id),
        now,
      );
    } catch (err) {
      unknown = `the scrapers' leases or last polls could not be read: ${(err as Error).message}`;
    }
    for (const cluster of watched) {
      const known = facts?.get(cluster.id);
      await evaluateScope(this.deps.evaluation, cluster, 'fleet', now, () =>
        known
          ? { readingsOf: (rule) => readPolling(rule, known, now, staleAfterMs), exists: () => true }
          : { readingsOf: () => null, exists: () => true, unknown },
      );
      // Unknown facts change nothing: a stand-in keeps sending, none starts.
      if (known) this.standIn(cluster, readPolling(ANY_POLLER, known, now, staleAfterMs)[0].holds === true);
    }
    const ids = new Set(watched.map((c) => c.id));
    for (const cluster of [...this.standingIn.values()])
      if (!ids.has(cluster.id)) this.standIn(cluster, false);
  }

  /** Stops every stand-in (the replica stops). */
  stop(): void {
    for (const cluster of [...this.standingIn.values()]) this.standIn(cluster, false);
  }

  private standIn(cluster: WatchedCluster, on: boolean): void {
    if (on === this.standingIn.has(cluster.id)) return;
    if (on) this.standingIn.set(cluster.id, cluster);
    else this.standingIn.delete(cluster.id);
    this.deps.standIn(cluster, on);
  }
}
