import type { TypedKv } from '@artemis-studio/bus';
import { healthOf, type LiveNodeSet, type SignalTopic } from '@artemis-studio/contracts';
import type { ClusterTarget, ClusterTargetNode } from '@artemis-studio/db';
import {
  JolokiaClient,
  JolokiaError,
  JolokiaTarget,
  defaultOrigin,
  type JolokiaResponse,
} from '../jolokia/jolokia-client';
import type { AddressSampleRepository } from '../addresses/address-sample.repository';
import { AddressSampler } from '../addresses/address-sampler';
import type { AddressReading } from '../addresses/address-observation';
import { QueueSnapshotRepository } from '../queues/queue-snapshot.repository';
import { StoredQueues } from '../queues/stored-queues';
import { NodeStateRepository } from '../topology/node-state.repository';
import {
  NodeObservation,
  TIER_A_REQUESTS,
  observeBroker,
  topologyKey,
  unreachableNode,
  withRoleHistory,
} from '../topology/node-observation';
import type { AlertEvaluation } from '../alerting/alert-evaluation';
import type { NodeFact } from '../alerting/conditions';
import { LOGIN_REFUSED_RETRY_MS, retryDelayMs } from './retry-policy';
import { TIER_B_REQUESTS, readTierB, type NodeTierB } from './tier-b';
import type { RingKeeper } from '../notification-rings/ring-keeper';

/**
 * A tick still running after this long (or three intervals, if longer) is said in the log, with
 * the step it is on, and again when it ends: a poll that waits without an error (a lock in
 * PostgreSQL, a socket never freed) otherwise leaves every figure of the cluster frozen unsaid.
 */
export const STALLED_TICK_MS = 10_000;

type Tier = 'tier A' | 'tier B';

/**
 * After a live node stops answering, tier A polls every FAILOVER_POLL_MS for FAILOVER_WATCH_MS (or
 * at its own interval, if shorter): a backup that takes over is then reported live within half a
 * second of its activation instead of up to a whole interval (5 s by default) later, and the
 * notifier's unobserved period ends that much sooner. Two calls a second stay within the node's
 * call budget (SCRAPER_NODE_CALLS_PER_SECOND, 5).
 */
const FAILOVER_POLL_MS = 500;
const FAILOVER_WATCH_MS = 10_000;

export interface PollerDeps {
  jolokia: Pick<JolokiaClient, 'bulk'>;
  nodeStates: Pick<NodeStateRepository, 'load' | 'save'>;
  queues: Pick<QueueSnapshotRepository, 'sync' | 'clearNode'>;
  addresses: Pick<AddressSampleRepository, 'record' | 'openSamples'>;
  liveNodes: Pick<TypedKv<LiveNodeSet>, 'put'>;
  /** Studio's ring of notifications on each live node (ADR-0015); none when absent. */
  rings?: Pick<RingKeeper, 'keep'>;
  /** Given each tick's observations (alert evaluation, the Prometheus export); never throws. */
  observers: Pick<AlertEvaluation, 'afterNodes' | 'afterQueues'>;
  signal(clusterId: string, topic: SignalTopic): void;
  /** A tier-A poll of a node failed (counted per cluster, node and kind). */
  pollFailed(cluster: string, node: string, kind: string): void;
  /** Read at every tick, so a changed setting applies without a restart. */
  intervals(): { tierAMs: number; tierBMs: number };
  /** `fields` (clusterId, node) become fields of the JSON log line, for filtering by them. */
  log: { warn(message: string, fields?: { clusterId: string; node?: string }): void };
  now?: () => Date;
}

/**
 * Polls one cluster while this replica owns it: tier A (roles, health, live-node set) and tier B
 * (queues), one bulk Jolokia request per node per tier, and a signal only when the persisted
 * state really changed (ADR-0018).
 */
export class ClusterPoller {
  private observations: NodeObservation[] = [];
  private readonly failures = new Map<string, { count: number; retryAt: number }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** This tick's read of each node's notification queues (the second answer of its tier-A poll). */
  private ringAnswers = new Map<string, JolokiaResponse>();
  /** Which addresses a tick samples; made at the first tick B from the history's open samples. */
  private addressSampler: AddressSampler | null = null;
  /** What each live node's queue snapshots hold, as this owner wrote them: only changes are sent. */
  private readonly storedQueues = new Map<string, StoredQueues>();
  private stopped = false;
  private readonly now: () => Date;
  /** Until when tier A polls at FAILOVER_POLL_MS: a live node stopped answering (epoch ms). */
  private failoverWatchUntil = 0;
  /** What each tier's tick is doing now, for the stall warning. */
  private readonly steps: Record<Tier, string> = { 'tier A': 'starting', 'tier B': 'starting' };

  constructor(
    readonly target: ClusterTarget,
    private readonly deps: PollerDeps,
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The nodes tier A last saw live. */
  liveNodes(): ClusterTargetNode[] {
    const live = new Set(this.observations.filter((o) => o.role === 'live').map((o) => o.nodeId));
    return this.target.nodes.filter((n) => live.has(n.id));
  }

  /** The broker name (MBean key) tier A last read from a node. */
  brokerName(nodeId: string): string | null {
    return this.observations.find((o) => o.nodeId === nodeId)?.brokerName ?? null;
  }

  jolokiaTarget(node: ClusterTargetNode): JolokiaTarget {
    return {
      nodeKey: node.id,
      jolokiaUrl: node.jolokiaUrl,
      origin: this.target.jolokiaOrigin ?? defaultOrigin(node.jolokiaUrl),
      auth: this.target.credentials.JOLOKIA,
    };
  }

  start(): void {
    const tierB = () =>
      this.loop(
        'tier B',
        () => this.tierB(),
        () => this.deps.intervals().tierBMs,
      );
    this.loop(
      'tier A',
      () => this.tierA(),
      () => {
        const { tierAMs } = this.deps.intervals();
        return Date.now() < this.failoverWatchUntil ? Math.min(FAILOVER_POLL_MS, tierAMs) : tierAMs;
      },
      tierB,
    );
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** One tier-A tick. */
  async tierA(): Promise<void> {
    const clusterId = this.target.id;
    const now = this.now();
    this.ringAnswers = new Map();
    this.steps['tier A'] = 'loading the node states';
    const previous = new Map((await this.deps.nodeStates.load(clusterId)).map((o) => [o.nodeId, o]));
    this.steps['tier A'] = 'reading the nodes';
    const observed = await Promise.all(
      this.target.nodes.map((node) => this.observe(node, previous.get(node.id), now)),
    );
    const fresh = observed
      .filter((o): o is NodeObservation => o !== 'skipped')
      .map((o) => withRoleHistory(o, previous.get(o.nodeId)));
    // Deleted while this tick polled: its rows and live-node set must not come back; the registry
    // stops this poller when the deletion reaches it.
    this.steps['tier A'] = 'saving the node states';
    if (!(await this.deps.nodeStates.save(clusterId, fresh))) return;

    const before = this.target.nodes.map((n) => previous.get(n.id)).filter((o): o is NodeObservation => !!o);
    // A node last seen live whose poll fails: a failover may be under way (the watch ends by itself
    // once the node is called unreachable, its role no longer live).
    if (before.some((o) => o.role === 'live' && this.failures.has(o.nodeId)))
      this.failoverWatchUntil = Date.now() + FAILOVER_WATCH_MS;
    // node_state keeps no broker name: a skipped node's row is completed from memory, or one skipped
    // poll (a blip, the call budget spent by an action) would forget it, and every live read and
    // action on the node would fail until the next poll ("broker name not observed yet").
    const known = new Map(this.observations.map((o) => [o.nodeId, o.brokerName]));
    const withHistory = new Map(fresh.map((o) => [o.nodeId, o]));
    const after = this.target.nodes.map((n) => {
      const seen = withHistory.get(n.id);
      if (seen) return seen;
      const kept = previous.get(n.id);
      return kept && { ...kept, brokerName: kept.brokerName ?? known.get(n.id) ?? null };
    });
    this.observations = after.filter((o): o is NodeObservation => !!o);
    if (topologyKey(before) !== topologyKey(this.observations)) this.deps.signal(clusterId, 'topology');
    if (healthOf(before) !== healthOf(this.observations)) this.deps.signal(clusterId, 'health');

    this.steps['tier A'] = 'keeping the rings and publishing the live nodes';
    await this.deps.liveNodes.put(clusterId, {
      clusterId,
      asOf: now.toISOString(),
      nodes: await Promise.all(
        this.liveNodes().map(async (n) => {
          const ring = await this.keepRing(n, now);
          return { name: n.name, jolokiaUrl: n.jolokiaUrl, amqpUrl: n.amqpUrl, ...ring };
        }),
      ),
    });
    this.steps['tier A'] = 'evaluating the node alert rules';
    await this.deps.observers.afterNodes(this.target, this.nodeFacts(), now);
  }

  /** Keeps the node's ring as the setting says; what the notifier may consume there. */
  private async keepRing(node: ClusterTargetNode, now: Date) {
    const seen = this.observations.find((o) => o.nodeId === node.id);
    if (!this.deps.rings || !seen?.brokerName) return undefined;
    return this.deps.rings.keep(
      {
        name: node.name,
        broker: seen.brokerName,
        target: this.jolokiaTarget(node),
        answer: this.ringAnswers.get(node.id),
        startedAt: seen.uptimeMs === null ? null : new Date(seen.observedAt.getTime() - seen.uptimeMs),
      },
      now,
    );
  }

  /** Each node's last observation, named as registered (a row loaded from node_state has no name). */
  private nodeFacts(): NodeFact[] {
    const byId = new Map(this.observations.map((o) => [o.nodeId, o]));
    return this.target.nodes.flatMap((node) => {
      const o = byId.get(node.id);
      return o
        ? [
            {
              name: node.name,
              reachable: o.reachable,
              role: o.role,
              replicaSync: o.replicaSync,
              diskUsage: o.diskUsage,
              diskLimit: o.diskLimit,
              memoryBytes: o.memoryBytes,
              memoryLimitBytes: o.memoryLimitBytes,
              roleChangedAt: o.roleChangedAt,
            },
          ]
        : [];
    });
  }

  /** One tier-B tick: every live node's queues and addresses; backups' stale snapshots removed. */
  async tierB(): Promise<void> {
    const observedAt = this.now();
    let changes = 0;
    // What each live node's read gave, for the alert rules; null once one could not be read.
    let read: NodeTierB[] | null = [];
    for (const node of this.liveNodes()) {
      try {
        this.steps['tier B'] = `reading node ${node.name}`;
        const {
          queues: { queues, unreadable },
          addresses,
          addressError,
        } = readTierB(await this.deps.jolokia.bulk(this.jolokiaTarget(node), TIER_B_REQUESTS));
        if (addressError !== null)
          this.deps.log.warn(
            `cluster ${this.target.name}, node ${node.name}: addresses unknown this tick: ${addressError}`,
            { clusterId: this.target.id, node: node.name },
          );
        if (unreadable.length > 0)
          this.deps.log.warn(
            `cluster ${this.target.name}, node ${node.name}: ${unreadable.length} queue(s) could not be read and keep their last figures (${unreadable[0].name}: ${unreadable[0].reason})`,
            { clusterId: this.target.id, node: node.name },
          );
        const unread = unreadable.map((q) => q.name);
        this.steps['tier B'] = `storing the queues of node ${node.name}`;
        const stored = this.storedQueuesOf(node.id);
        const tick = stored.split(queues, observedAt);
        const result = await this.deps.queues.sync(
          this.target.id,
          node.id,
          tick.changed,
          observedAt,
          unread,
          tick.stored,
        );
        if (result === null) return;
        if (result.storedMissing === 0) stored.wrote(queues);
        else {
          stored.forget();
          this.deps.log.warn(
            `cluster ${this.target.name}, node ${node.name}: ${result.storedMissing} queue(s) had no snapshot to take their figures from, and are left out until the next tick`,
            { clusterId: this.target.id, node: node.name },
          );
        }
        this.steps['tier B'] = `storing the addresses of node ${node.name}`;
        await this.recordAddresses(node.id, addresses, observedAt);
        changes += result.changed + result.removed;
        read?.push({ nodeId: node.id, queues, unread, addresses });
      } catch (err) {
        read = null;
        this.deps.log.warn(
          `cluster ${this.target.name}, node ${node.name}: queue poll failed: ${(err as Error).message}`,
          { clusterId: this.target.id, node: node.name },
        );
      }
    }
    // A node no longer live starts afresh when it is live again: its snapshots go (below).
    const live = new Set(this.liveNodes().map((n) => n.id));
    for (const nodeId of this.storedQueues.keys()) if (!live.has(nodeId)) this.storedQueues.delete(nodeId);
    this.steps['tier B'] = "clearing the backups' queues";
    for (const o of this.observations.filter((o) => o.reachable && o.role !== 'live')) {
      changes += await this.deps.queues.clearNode(o.nodeId);
      await this.recordAddresses(o.nodeId, null, observedAt);
    }
    if (changes > 0) this.deps.signal(this.target.id, 'queues');
    this.steps['tier B'] = 'evaluating the queue alert rules';
    await this.deps.observers.afterQueues(this.target, observedAt, read);
  }

  private storedQueuesOf(nodeId: string): StoredQueues {
    let stored = this.storedQueues.get(nodeId);
    if (!stored) this.storedQueues.set(nodeId, (stored = new StoredQueues()));
    return stored;
  }

  /**
   * A node's addresses at a tick, or (null) unknown from it: what changed, is due or ended
   * (ADR-0022). The sampler starts from the history at this owner's first tick, and moves on only
   * once its rows are stored, so it always compares with what the history holds.
   */
  private async recordAddresses(nodeId: string, reading: AddressReading | null, at: Date): Promise<void> {
    this.addressSampler ??= new AddressSampler(await this.deps.addresses.openSamples(this.target.id, at));
    const plan = this.addressSampler.plan(nodeId, reading, at);
    await this.deps.addresses.record(this.target.id, nodeId, plan.rows, at);
    plan.written();
  }

  private async observe(
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
      const answers = await this.deps.jolokia.bulk(this.jolokiaTarget(node), TIER_A_REQUESTS);
      const observation = observeBroker(identity, answers, now);
      if (answers[1]) this.ringAnswers.set(node.id, answers[1]);
      if (observation.reachable) {
        this.failures.delete(node.id);
        return observation;
      }
      const count = this.failed(node, now, 'no-broker', observation.reason);
      return this.isBlip(count, previous) ? 'skipped' : observation;
    } catch (err) {
      // Over budget is our own limit, not the node's fault: keep what we knew and try next tick.
      if (err instanceof JolokiaError && err.kind === 'limited' && previous) return 'skipped';
      const failure = err instanceof JolokiaError ? err : undefined;
      const count = this.failed(node, now, failure?.kind ?? 'error', (err as Error).message, failure);
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
    failure?: JolokiaError,
  ): number {
    this.deps.pollFailed(this.target.name, node.name, kind);
    if (!this.failures.has(node.id))
      this.deps.log.warn(`cluster ${this.target.name}, node ${node.name}: poll failed (${kind}): ${reason}`, {
        clusterId: this.target.id,
        node: node.name,
      });
    return this.backOff(node.id, now, failure);
  }

  private backOff(nodeId: string, now: Date, failure?: JolokiaError): number {
    const count = (this.failures.get(nodeId)?.count ?? 0) + 1;
    const delay = retryDelayMs(
      { count, kind: failure?.kind, retryAfterMs: failure?.retryAfterMs },
      this.deps.intervals().tierAMs,
      Math.random(),
    );
    this.failures.set(nodeId, { count, retryAt: now.getTime() + delay - 1 });
    return count;
  }

  private loop(tier: Tier, run: () => Promise<void>, interval: () => number, afterFirst?: () => void): void {
    const fields = { clusterId: this.target.id };
    const tick = async (first: boolean) => {
      if (this.stopped) return;
      const started = Date.now();
      this.steps[tier] = 'starting';
      let stalled = false;
      const watch = setTimeout(
        () => {
          stalled = true;
          this.deps.log.warn(
            `cluster ${this.target.name}: ${tier} tick still running after ${Math.round((Date.now() - started) / 1000)} s, ${this.steps[tier]}`,
            fields,
          );
        },
        Math.max(STALLED_TICK_MS, 3 * interval()),
      );
      // Only a warning: it must not hold a stopping process open.
      watch.unref?.();
      try {
        await run();
      } catch (err) {
        this.deps.log.warn(`cluster ${this.target.name}: poll failed: ${(err as Error).message}`, fields);
      } finally {
        clearTimeout(watch);
      }
      if (stalled)
        this.deps.log.warn(
          `cluster ${this.target.name}: ${tier} tick ended after ${Math.round((Date.now() - started) / 1000)} s`,
          fields,
        );
      if (first) afterFirst?.();
      if (this.stopped) return;
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          void tick(false);
        },
        Math.max(0, interval() - (Date.now() - started)),
      );
      this.timers.add(timer);
    };
    void tick(true);
  }
}
