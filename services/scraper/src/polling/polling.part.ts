import { Bus, type TypedKv } from '@artemis-studio/bus';
import { buckets, rpcs, type LiveNodeSet } from '@artemis-studio/contracts';
import { BUS, SettingsService, SignalPublisher } from '@artemis-studio/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import { BrokerLanes } from '../jolokia/broker-lanes';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { RING_OFF, RingKeeper } from '../notification-rings/ring-keeper';
import { QueueSnapshotRepository } from '../queues/queue-snapshot.repository';
import { NodeStateRepository } from '../topology/node-state.repository';
import { ClusterPoller, type PollerDeps } from './cluster-poller';
import { PollMetrics } from './poll-metrics';
import { TICK_OBSERVERS, type TickObserver } from './tick-observer';

/**
 * The first part of every owned cluster: its poller (tier A and tier B, the live-node set) and
 * Studio's notification ring on each live node (ADR-0015), which tier A keeps.
 */
@Injectable()
export class PollingPart implements ClusterPart {
  readonly serves = [] as const;
  private readonly logger = new Logger('Polling');
  // An object logs its fields beside `msg` (nestjs-pino): a line can be found by cluster and node.
  private readonly log = {
    warn: (msg: string, fields?: Record<string, unknown>) =>
      this.logger.warn(fields ? { ...fields, msg } : msg),
  };
  private liveNodes?: TypedKv<LiveNodeSet>;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(TICK_OBSERVERS) private readonly observers: readonly TickObserver[],
    private readonly jolokia: JolokiaClient,
    private readonly lanes: BrokerLanes,
    private readonly nodeStates: NodeStateRepository,
    private readonly queues: QueueSnapshotRepository,
    private readonly addresses: AddressSampleRepository,
    private readonly settings: SettingsService,
    private readonly signals: SignalPublisher,
    private readonly metrics: PollMetrics,
  ) {}

  async connect(): Promise<void> {
    this.liveNodes = await this.bus.kv(buckets.liveNodes);
  }

  start(cluster: OwnedCluster): PartRun {
    const liveNodes = this.liveNodes!;
    const clusterId = cluster.target.id;
    // Whether the registration wants the ring: read by the ring keeper at every tick, so turning
    // it on or off takes effect at the next tick, with nothing restarted.
    const ring = { wanted: cluster.target.notificationRing !== false };
    const rings = new RingKeeper(
      clusterId,
      {
        jolokia: this.jolokia,
        lanes: this.lanes,
        size: () => (ring.wanted ? this.settings.get('artemis-studio.notifications.ring-size') : 0),
        offReason: () => (ring.wanted ? RING_OFF.setting : RING_OFF.cluster),
        reportDrops: (report) => this.bus.request(rpcs.recordDrops, report),
        log: this.log,
      },
      async () => (await liveNodes.get(clusterId))?.value ?? null,
    );
    const poller = new ClusterPoller(cluster, { ...this.pollerDeps(liveNodes), rings });
    poller.start();
    return {
      refresh: (target) => {
        ring.wanted = target.notificationRing !== false;
      },
      stop: () => poller.stop(),
      // A deleted cluster has no live nodes; one merely handed over keeps its set for the new owner.
      released: async (deleted) => {
        if (!deleted) return;
        await liveNodes.delete(clusterId).catch(() => undefined);
        // Not awaited: it waits for the notifier to let go, and the leases must be renewed meanwhile.
        void rings.remove(
          cluster.liveNodes().flatMap((n) => {
            const broker = cluster.brokerName(n.id);
            return broker ? [{ name: n.name, broker, target: cluster.jolokiaTarget(n) }] : [];
          }),
        );
      },
    };
  }

  private pollerDeps(liveNodes: TypedKv<LiveNodeSet>): PollerDeps {
    return {
      jolokia: this.jolokia,
      nodeStates: this.nodeStates,
      queues: this.queues,
      addresses: this.addresses,
      liveNodes,
      observers: this.observers,
      signal: (clusterId, topic) => this.signals.signal(clusterId, topic),
      pollFailed: (cluster, node, kind) => this.metrics.pollFailed(cluster, node, kind),
      intervals: () => ({
        tierAMs: this.settings.get('artemis-studio.scrape.tier-a-millis'),
        tierBMs: this.settings.get('artemis-studio.scrape.tier-b-millis'),
      }),
      log: this.log,
    };
  }
}
