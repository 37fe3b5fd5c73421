import type { TypedKv } from '@artemis-studio/bus';
import { healthOf, type LiveNodeSet, type SignalTopic } from '@artemis-studio/contracts';
import type { ClusterTargetNode } from '@artemis-studio/db';
import type { JolokiaClient } from '../jolokia/jolokia-client';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import type { AddressSampleRepository } from '../addresses/address-sample.repository';
import { AddressSampler } from '../addresses/address-sampler';
import type { AddressReading } from '../addresses/address-observation';
import type { RingKeeper } from '../notification-rings/ring-keeper';
import type { QueueSnapshotRepository } from '../queues/queue-snapshot.repository';
import { StoredQueues } from '../queues/stored-queues';
import type { NodeStateRepository } from '../topology/node-state.repository';
import { NodeObservation, topologyKey, withRoleHistory } from '../topology/node-observation';
import { UnseenLiveNodes } from '../topology/unseen-live-nodes';
import { NodeProber } from './node-prober';
import { TIER_B_REQUESTS, readTierB, type NodeTierB } from './tier-b';
import type { NodeFact, TickObserver, UnreadNode } from './tick-observer';
import { TickLoops } from './tick-loop';

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
  /** Told each tick's observations, in turn (alert evaluation, the Prometheus export). */
  observers: readonly TickObserver[];
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
 * state really changed (ADR-0018). What tier A sees of the nodes goes to the owned cluster, where
 * every other part reads it.
 */
export class ClusterPoller {
  private observations: NodeObservation[] = [];
  /** Which addresses a tick samples; made at the first tick B from the history's open samples. */
  private addressSampler: AddressSampler | null = null;
  /** What each live node's queue snapshots hold, as this owner wrote them: only changes are sent. */
  private readonly storedQueues = new Map<string, StoredQueues>();
  private readonly now: () => Date;
  private readonly prober: NodeProber;
  private readonly loops: TickLoops;
  /** Until when tier A polls at FAILOVER_POLL_MS: a live node stopped answering (epoch ms). */
  private failoverWatchUntil = 0;
  private readonly unseen = new UnseenLiveNodes();

  constructor(
    private readonly cluster: OwnedCluster,
    private readonly deps: PollerDeps,
  ) {
    this.now = deps.now ?? (() => new Date());
    this.prober = new NodeProber(cluster.target, cluster, {
      ...deps,
      tierAMs: () => deps.intervals().tierAMs,
    });
    this.loops = new TickLoops({ cluster: cluster.target, log: deps.log });
  }

  private get target() {
    return this.cluster.target;
  }

  start(): void {
    const tierB = () =>
      this.loops.loop(
        'tier B',
        () => this.tierB(),
        () => this.deps.intervals().tierBMs,
      );
    this.loops.loop(
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
    this.loops.stop();
  }

  /** One tier-A tick. */
  async tierA(): Promise<void> {
    const clusterId = this.target.id;
    const now = this.now();
    this.prober.ringAnswers.clear();
    this.loops.step('tier A', 'loading the node states');
    const previous = new Map((await this.deps.nodeStates.load(clusterId)).map((o) => [o.nodeId, o]));
    this.loops.step('tier A', 'reading the nodes');
    const observed = await Promise.all(
      this.target.nodes.map((node) => this.prober.observe(node, previous.get(node.id), now)),
    );
    const fresh = observed
      .filter((o): o is NodeObservation => o !== 'skipped')
      .map((o) => withRoleHistory(o, previous.get(o.nodeId)));
    // Deleted while this tick polled: its rows and live-node set must not come back; the registry
    // stops this poller when the deletion reaches it.
    this.loops.step('tier A', 'saving the node states');
    if (!(await this.deps.nodeStates.save(clusterId, fresh))) return;

    const before = this.target.nodes.map((n) => previous.get(n.id)).filter((o): o is NodeObservation => !!o);
    // A node last seen live whose poll fails: a failover may be under way (the watch ends by itself
    // once the node is called unreachable, its role no longer live).
    if (before.some((o) => o.role === 'live' && this.prober.failing(o.nodeId)))
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
    this.cluster.saw(
      this.observations.map((o) => ({ nodeId: o.nodeId, live: o.role === 'live', brokerName: o.brokerName })),
    );
    if (topologyKey(before) !== topologyKey(this.observations)) this.deps.signal(clusterId, 'topology');
    if (healthOf(before) !== healthOf(this.observations)) this.deps.signal(clusterId, 'health');

    this.loops.step('tier A', 'keeping the rings and publishing the live nodes');
    await this.deps.liveNodes.put(clusterId, {
      clusterId,
      asOf: now.toISOString(),
      nodes: await Promise.all(
        this.cluster.liveNodes().map(async (n) => {
          const ring = await this.keepRing(n, now);
          return { name: n.name, jolokiaUrl: n.jolokiaUrl, amqpUrl: n.amqpUrl, ...ring };
        }),
      ),
      unseen: this.unseen.of(this.observations, [...previous.values()], this.target.nodes),
    });
    this.loops.step('tier A', 'evaluating the node alert rules');
    const facts = this.nodeFacts();
    for (const observer of this.deps.observers) await observer.afterNodes(this.target, facts, now);
  }

  /** Keeps the node's ring as the setting says; what the notifier may consume there. */
  private async keepRing(node: ClusterTargetNode, now: Date) {
    const seen = this.observations.find((o) => o.nodeId === node.id);
    if (!this.deps.rings || !seen?.brokerName) return undefined;
    return this.deps.rings.keep(
      {
        name: node.name,
        broker: seen.brokerName,
        target: this.cluster.jolokiaTarget(node),
        answer: this.prober.ringAnswers.get(node.id),
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
    // What each live node's read gave, for the alert rules; the first node that could not be read.
    const nodes: NodeTierB[] = [];
    let unreadNode: UnreadNode | null = null;
    for (const node of this.cluster.liveNodes()) {
      try {
        this.loops.step('tier B', `reading node ${node.name}`);
        // The links (cluster connections, bridges, broker connections) go as read to the observers.
        const {
          queues: { queues, unreadable },
          addresses,
          errors,
          ...links
        } = readTierB(await this.deps.jolokia.bulk(this.cluster.jolokiaTarget(node), TIER_B_REQUESTS));
        if (errors.length > 0)
          this.deps.log.warn(
            `cluster ${this.target.name}, node ${node.name}: unknown this tick: ${errors.join('; ')}`,
            { clusterId: this.target.id, node: node.name },
          );
        if (unreadable.length > 0)
          this.deps.log.warn(
            `cluster ${this.target.name}, node ${node.name}: ${unreadable.length} queue(s) could not be read and keep their last figures (${unreadable[0].name}: ${unreadable[0].reason})`,
            { clusterId: this.target.id, node: node.name },
          );
        const unread = unreadable.map((q) => q.name);
        this.loops.step('tier B', `storing the queues of node ${node.name}`);
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
        this.loops.step('tier B', `storing the addresses of node ${node.name}`);
        await this.recordAddresses(node.id, addresses, observedAt);
        changes += result.changed + result.removed;
        nodes.push({ nodeId: node.id, queues, unread, addresses, ...links });
      } catch (err) {
        unreadNode ??= { node: node.name, reason: (err as Error).message };
        this.deps.log.warn(
          `cluster ${this.target.name}, node ${node.name}: queue poll failed: ${(err as Error).message}`,
          { clusterId: this.target.id, node: node.name },
        );
      }
    }
    // A node no longer live starts afresh when it is live again: its snapshots go (below).
    const live = new Set(this.cluster.liveNodes().map((n) => n.id));
    for (const nodeId of this.storedQueues.keys()) if (!live.has(nodeId)) this.storedQueues.delete(nodeId);
    this.loops.step('tier B', "clearing the backups' queues");
    for (const o of this.observations.filter((o) => o.reachable && o.role !== 'live')) {
      changes += await this.deps.queues.clearNode(o.nodeId);
      await this.recordAddresses(o.nodeId, null, observedAt);
    }
    if (changes > 0) this.deps.signal(this.target.id, 'queues');
    this.loops.step('tier B', 'evaluating the queue alert rules');
    const read = unreadNode ?? nodes;
    for (const observer of this.deps.observers) await observer.afterQueues(this.target, observedAt, read);
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
}
