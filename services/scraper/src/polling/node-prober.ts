import type { ClusterTarget, ClusterTargetNode } from '@artemis-studio/db';
import { JolokiaError, type JolokiaClient, type JolokiaResponse } from '../jolokia/jolokia-client';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import {
  NodeObservation,
  TIER_A_REQUESTS,
  observeBroker,
  unreachableNode,
} from '../topology/node-observation';
import { LOGIN_REFUSED_RETRY_MS, retryDelayMs } from './retry-policy';

export interface NodeProberDeps {
  jolokia: Pick<JolokiaClient, 'bulk'>;
  /** A tier-A poll of a node failed (counted per cluster, node and kind). */
  pollFailed(cluster: string, node: string, kind: string): void;
  tierAMs(): number;
  log: { warn(message: string, fields?: { clusterId: string; node?: string }): void };
}

/**
 * Tier A's read of one node: its broker's roles and health, or why it could not be read. A node
 * that fails is backed off from (retry-policy.ts), and one failure after a good poll is a blip.
 */
export class NodeProber {
  private readonly failures = new Map<string, { count: number; retryAt: number }>();
  /** This tick's read of each node's notification queues (the second answer of its poll). */
  readonly ringAnswers = new Map<string, JolokiaResponse>();

  constructor(
    private readonly target: ClusterTarget,
    private readonly nodes: Pick<ClusterNodes, 'jolokiaTarget'>,
    private readonly deps: NodeProberDeps,
  ) {}

  /** Whether the node's last poll failed. */
  failing(nodeId: string): boolean {
    return this.failures.has(nodeId);
  }

  async observe(
    node: ClusterTargetNode,
    previous: NodeObservation | undefined,
    now: Date,
  ): Promise<NodeObservation | 'skipped'> {
    const identity = { nodeId: node.id, name: node.name };
    if (this.target.credentialError)
      return unreachableNode(identity, this.target.credentialError, now, previous?.lastOkAt ?? null);
    const failure = this.failures.get(node.id);
    if (failure && failure.retryAt > now.getTime() && previous) return 'skipped';
    try {
      const answers = await this.deps.jolokia.bulk(this.nodes.jolokiaTarget(node), TIER_A_REQUESTS);
      const observation = observeBroker(identity, answers, now);
      if (answers[1]) this.ringAnswers.set(node.id, answers[1]);
      if (observation.reachable) {
        this.failures.delete(node.id);
        return observation;
      }
      const count = this.failed(node, now, 'no-broker', observation.reason, previous);
      return this.isBlip(count, previous) ? 'skipped' : observation;
    } catch (err) {
      // Over budget is our own limit, not the node's fault: keep what we knew and try next tick.
      if (err instanceof JolokiaError && err.kind === 'limited' && previous) return 'skipped';
      const failure = err instanceof JolokiaError ? err : undefined;
      const count = this.failed(
        node,
        now,
        failure?.kind ?? 'error',
        (err as Error).message,
        previous,
        failure,
      );
      if (failure?.kind === 'unauthorized')
        return unreachableNode(
          identity,
          `${failure.message}; tried again in ${LOGIN_REFUSED_RETRY_MS / 60_000} min, or at once when the cluster's credentials change`,
          now,
          previous?.lastOkAt ?? null,
        );
      if (this.isBlip(count, previous)) return 'skipped';
      return unreachableNode(identity, (err as Error).message, now, previous?.lastOkAt ?? null);
    }
  }

  /**
   * One failed poll of a node that answered the poll before is not yet "unreachable": a single
   * lost request (a GC pause, a dropped connection) would otherwise flip the topology and the
   * health for one tick, and an operator would see a node die and come back. The node keeps its
   * last state until a second poll in a row, one tick later, fails too; the blip is still counted
   * (`studio_scraper_poll_failures_total`) and logged. A refused login is not a blip.
   */
  private isBlip(failuresInARow: number, previous: NodeObservation | undefined): boolean {
    return failuresInARow === 1 && previous?.reachable === true;
  }

  /**
   * Counts the failure, says so when a node starts failing, and backs off from it.
   * Returns the failures in a row, this one included.
   */
  private failed(
    node: ClusterTargetNode,
    now: Date,
    kind: string,
    reason: string | null,
    previous: NodeObservation | undefined,
    failure?: JolokiaError,
  ): number {
    this.deps.pollFailed(this.target.name, node.name, kind);
    if (!this.failures.has(node.id))
      this.deps.log.warn(`cluster ${this.target.name}, node ${node.name}: poll failed (${kind}): ${reason}`, {
        clusterId: this.target.id,
        node: node.name,
      });
    return this.backOff(node.id, now, previous?.lastRole === 'live', failure);
  }

  private backOff(nodeId: string, now: Date, lastSeenLive: boolean, failure?: JolokiaError): number {
    const count = (this.failures.get(nodeId)?.count ?? 0) + 1;
    const delay = retryDelayMs(
      { count, kind: failure?.kind, retryAfterMs: failure?.retryAfterMs, lastSeenLive },
      this.deps.tierAMs(),
      Math.random(),
    );
    this.failures.set(nodeId, { count, retryAt: now.getTime() + delay - 1 });
    return count;
  }
}
