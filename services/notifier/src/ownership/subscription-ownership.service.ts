import { Bus, type Stoppable } from '@artemis-studio/bus';
import { buckets, type LiveNodeSet } from '@artemis-studio/contracts';
import {
  BUS,
  DatabaseService,
  ClusterOwnership,
  type OwnedClusters,
  ownedClustersFor,
  SignalPublisher,
} from '@artemis-studio/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { OWN_CLIENT_PREFIX } from '../events/broker-event.normaliser';
import { NotificationRouter } from '../events/notification-router';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { NOTIFIER_CONFIG, type NotifierConfig } from '../notifier.config';
import { CreditGate } from '../publishing/credit-gate';
import { EventPublisher } from '../publishing/event-publisher';
import { TopicCoalescer } from '../signals/topic-coalescer';
import { ClusterNotifications } from '../subscriptions/cluster-notifications';
import { ObservationLedger } from '../subscriptions/observation-ledger';

/** How often an observing notifier refreshes its cluster's mark: a crash is dated to within this. */
const OBSERVATION_REFRESH_MS = 5000;

/**
 * The notifier's clusters: a lease each (as in the scraper), and for each one owned, one
 * notification subscription per live node, following `studio_live_nodes`. Every notification goes
 * to the router; the verdict of each cluster to `studio_capabilities`, with a signal.
 */
@Injectable()
export class SubscriptionOwnershipService extends ClusterOwnership<ClusterNotifications> {
  protected readonly logger = new Logger('Notifier');
  private liveNodesWatch?: Stoppable;
  private readonly liveNodeSets = new Map<string, LiveNodeSet>();

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(NOTIFIER_CONFIG) private readonly config: NotifierConfig,
    private readonly database: DatabaseService,
    private readonly router: NotificationRouter,
    private readonly signals: SignalPublisher,
    private readonly coalescer: TopicCoalescer,
    private readonly publisher: EventPublisher,
    private readonly gate: CreditGate,
    metrics: NotifierMetrics,
  ) {
    super();
    metrics.countSubscriptionsWith(() =>
      (this.owned?.all() ?? []).reduce((n, cluster) => n + cluster.subscribedNodes().length, 0),
    );
  }

  /** The cluster's notifications, when this replica owns it. */
  cluster(clusterId: string): ClusterNotifications | undefined {
    return this.owned?.get(clusterId);
  }

  protected async own(): Promise<OwnedClusters<ClusterNotifications>> {
    const dataSource = await this.database.whenReady();
    await this.bus.ready();
    const capabilities = await this.bus.kv(buckets.capabilities);
    const liveNodes = await this.bus.kv(buckets.liveNodes);
    const observations = await this.bus.kv(buckets.observations);
    const owned = await ownedClustersFor({
      bus: this.bus,
      dataSource,
      service: 'notifier',
      owner: this.owner,
      secretKey: this.config.secretKey,
      leaseTtlMs: this.config.leaseTtlMs,
      start: (target) => {
        const ledger = new ObservationLedger({
          store: {
            read: async () => (await observations.get(target.id))?.value ?? null,
            write: async (mark) => void (await observations.put(target.id, mark)),
          },
          owner: this.owner,
          onUnobserved: (period) => this.router.unobserved(target.id, cluster.subscribedNodes(), period),
          refreshMs: OBSERVATION_REFRESH_MS,
          warn: (message) => this.logger.warn(`cluster ${target.name}: ${message}`),
        });
        const cluster = new ClusterNotifications(target, {
          ledger,
          containerId: `${OWN_CLIENT_PREFIX}-${this.owner}`,
          creditWindow: this.config.creditWindow,
          gate: this.gate,
          onNotification: (clusterId, node, properties) => this.router.route(clusterId, node, properties),
          putVerdict: (clusterId, verdict) =>
            void capabilities.put(clusterId, verdict).then(
              // Screens showing the verdict refetch it now rather than at their next poll.
              () => this.signals.signal(clusterId, 'capabilities'),
              (err) => this.logger.warn(`verdict not written: ${(err as Error).message}`),
            ),
        });
        cluster.apply(this.liveNodeSets.get(target.id) ?? null);
        return cluster;
      },
      released: async (clusterId, deleted) => {
        if (!deleted) return;
        await capabilities.delete(clusterId).catch(() => undefined);
        await observations.delete(clusterId).catch(() => undefined);
      },
      log: this.logger,
    });
    this.liveNodesWatch = liveNodes.watch((clusterId, set) => {
      if (set) this.liveNodeSets.set(clusterId, set);
      else this.liveNodeSets.delete(clusterId);
      owned.get(clusterId)?.apply(set ?? { clusterId, asOf: new Date().toISOString(), nodes: [] });
    });
    return owned;
  }

  /** In order: no new notifications, then the pending signals, then what the buffer still holds. */
  override async onApplicationShutdown(): Promise<void> {
    await this.liveNodesWatch?.stop();
    await super.onApplicationShutdown();
    this.coalescer.stop();
    await this.publisher.stop();
  }
}
