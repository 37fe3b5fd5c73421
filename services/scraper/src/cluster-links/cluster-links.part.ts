import { SignalPublisher } from '@artemis-studio/platform';
import { Injectable, Logger } from '@nestjs/common';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { mirrorBacklogOf } from '../topology/broker-connection';
import { bridgeConnected } from '../topology/core-bridge';
import { nodesRead, type ObservedCluster, type TickObserver, type TierBRead } from '../polling/tick-observer';
import type { NodeTierB } from '../polling/tier-b';
import { ClusterLinksRepository } from './cluster-links.repository';
import { addressSettingsRequest, redistributionDelayOf } from './redistribution';
import { explain, strandedCandidates, type StrandedCandidate } from './stranded-messages';

/**
 * How long an address's redistribution delay is taken as read: address settings change only when
 * broker.xml is edited, and a read per stranded address per tick would cost a call each.
 */
const SETTINGS_FRESH_MS = 60_000;

/** What one cluster's part keeps between ticks. */
interface Watched {
  cluster: OwnedCluster;
  /** `${nodeId}|${address}` to the delay and when it was read. */
  delays: Map<string, { delayMs: number | undefined; readAt: number }>;
  /**
   * The last tick stored no link and no stranded queue: the tables hold nothing of the cluster.
   * A broker outside any cluster (most registrations) then costs no transaction per tick.
   */
  storedNothing: boolean;
  /** What the console shows of the links as last stored: a change is signalled. */
  shown?: string;
}

/**
 * The links between a cluster's live nodes (issue 59): after each tier-B tick, each node's cluster
 * connections and core bridges are stored, and every queue whose messages wait on a node without consumers while it
 * has consumers on another is named, with why the broker leaves them there.
 */
@Injectable()
export class ClusterLinksPart implements ClusterPart, TickObserver {
  readonly serves = [] as const;
  private readonly watched = new Map<string, Watched>();
  private readonly log = new Logger('ClusterLinks');

  constructor(
    private readonly jolokia: JolokiaClient,
    private readonly repository: ClusterLinksRepository,
    private readonly signals: SignalPublisher,
  ) {}

  start(cluster: OwnedCluster): PartRun {
    this.watched.set(cluster.target.id, { cluster, delays: new Map(), storedNothing: false });
    return {
      stop: () => this.watched.delete(cluster.target.id),
      released: async (deleted) => {
        if (deleted) await this.repository.forget(cluster.target.id).catch(() => undefined);
      },
    };
  }

  afterNodes(): void {}

  /** A tick with a node unread changes nothing: what was stored stays until a complete tick. */
  async afterQueues(observed: ObservedCluster, now: Date, tick: TierBRead): Promise<void> {
    const reads = nodesRead(tick);
    const watched = this.watched.get(observed.id);
    if (reads === null || !watched) return;
    try {
      const connections = new Map(reads.map((r) => [r.nodeId, r.clusterConnections ?? null]));
      const nodeName = (id: string) => observed.nodes.find((n) => n.id === id)?.name ?? id;
      const candidates = strandedCandidates(reads);
      const delays = await this.redistributionDelays(watched, candidates, now);
      const stranded = candidates.map((c) =>
        explain(c, { connections, reads, nodeName }, delays.get(`${c.nodeId}|${c.address}`)),
      );
      const nothing =
        stranded.length === 0 &&
        reads.every(
          (r) =>
            r.clusterConnections?.length === 0 &&
            r.bridges?.length === 0 &&
            r.brokerConnections?.length === 0,
        );
      if (nothing && watched.storedNothing) return;
      const nodes = reads.map((r: NodeTierB) => ({
        nodeId: r.nodeId,
        connections: r.clusterConnections ?? null,
        bridges: r.bridges?.map((b) => ({ ...b, connected: bridgeConnected(b, r.queues) })) ?? null,
        brokerConnections:
          r.brokerConnections?.map((c) => ({ ...c, mirror: mirrorBacklogOf(c, r.queues) })) ?? null,
      }));
      await this.repository.record(observed.id, now, nodes, stranded);
      watched.storedNothing = nothing;
      // The tick's queue signal went before these were stored: a bridge that connects, a link that
      // stops or a queue stranded anew changes no queue figure, and the console would not hear of it.
      const shown = JSON.stringify([
        nodes.map((n) => [
          n.connections?.map((c) => [c.name, c.started, c.connectedTo]),
          n.bridges?.map((b) => [b.name, b.started, b.connected]),
          // Its totals and backlog are left out: a mirror's queue changing is itself a queue change.
          n.brokerConnections?.map((c) => [c.name, c.direction, c.peerBrokerNodeId, c.started, c.connected]),
        ]),
        stranded.map((s) => [s.nodeId, s.queue, s.messages, s.reason]),
      ]);
      if (watched.shown !== undefined && shown !== watched.shown) this.signals.signal(observed.id, 'queues');
      watched.shown = shown;
    } catch (err) {
      this.log.warn(`cluster ${observed.name}: links not recorded this tick: ${(err as Error).message}`);
    }
  }

  /** Each candidate's address settings, read once a minute per node and address, in one call per node. */
  private async redistributionDelays(
    watched: Watched,
    candidates: readonly StrandedCandidate[],
    now: Date,
  ): Promise<Map<string, number | undefined>> {
    const stale = new Map<string, Set<string>>();
    for (const c of candidates) {
      const held = watched.delays.get(`${c.nodeId}|${c.address}`);
      if (held && now.getTime() - held.readAt < SETTINGS_FRESH_MS) continue;
      stale.set(c.nodeId, (stale.get(c.nodeId) ?? new Set()).add(c.address));
    }
    for (const [nodeId, addresses] of stale) {
      const node = watched.cluster.liveNodes().find((n) => n.id === nodeId);
      const brokerName = watched.cluster.brokerName(nodeId);
      if (!node || !brokerName) continue;
      const list = [...addresses];
      const answers = await this.jolokia
        .bulk(
          watched.cluster.jolokiaTarget(node),
          list.map((a) => addressSettingsRequest(brokerName, a)),
        )
        .catch(() => [] as const);
      list.forEach((address, i) =>
        watched.delays.set(`${nodeId}|${address}`, {
          delayMs: redistributionDelayOf(answers[i]),
          readAt: answers[i] ? now.getTime() : 0,
        }),
      );
    }
    // Only what is stranded now is kept: the map stays as small as the list.
    const current = new Set(candidates.map((c) => `${c.nodeId}|${c.address}`));
    for (const key of watched.delays.keys()) if (!current.has(key)) watched.delays.delete(key);
    return new Map([...watched.delays].map(([key, held]) => [key, held.delayMs]));
  }
}
