import { Bus, type Stoppable, type TypedKv } from '@artemis-studio/bus';
import { buckets, leaseKey, type Lease, type LiveNodeSet } from '@artemis-studio/contracts';
import {
  BUS,
  DatabaseService,
  InstallationGuard,
  ClusterOwnership,
  type OwnedClusters,
  ownedClustersFor,
  SignalPublisher,
} from '@artemis-studio/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Registry } from 'prom-client';
import { OWN_CLIENT_PREFIX } from '../events/broker-event.normaliser';
import { NotificationRouter } from '../events/notification-router';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { NOTIFIER_CONFIG, type NotifierConfig } from '../notifier.config';
import { CreditGate } from '../publishing/credit-gate';
import { EventPublisher } from '../publishing/event-publisher';
import { TopicCoalescer } from '../signals/topic-coalescer';
import { ClusterNotifications } from '../subscriptions/cluster-notifications';
import { ObservationLedger } from '../subscriptions/observation-ledger';

/** How long past a third of the lease TTL a handover waits for another replica to claim the lease. */
const CLAIM_MARGIN_MS = 2000;

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
  /** Opened at start: opening it again at a stop asks NATS, and waits out a timeout while it is away. */
  private leases?: TypedKv<Lease>;
  private readonly liveNodeSets = new Map<string, LiveNodeSet>();

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(NOTIFIER_CONFIG) private readonly config: NotifierConfig,
    private readonly database: DatabaseService,
    protected readonly installation: InstallationGuard,
    private readonly router: NotificationRouter,
    private readonly signals: SignalPublisher,
    private readonly coalescer: TopicCoalescer,
    private readonly publisher: EventPublisher,
    private readonly gate: CreditGate,
    metrics: NotifierMetrics,
    registry: Registry,
  ) {
    super();
    this.exposeOwnership(registry);
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
    const leases = await this.bus.kv(buckets.leases);
    this.leases = leases;
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
            read: async () => {
              const entry = await observations.get(target.id);
              return entry ? { mark: entry.value, revision: entry.revision } : null;
            },
            write: async (mark) => void (await observations.put(target.id, mark)),
            replace: async (mark, revision) =>
              (await observations.update(target.id, mark, revision)) !== null,
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
          onNotification: (clusterId, node, properties, receipt) =>
            this.router.route(clusterId, node, properties, receipt),
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
      // A cluster moving to its preferred owner (a replica joined) is handed over as at shutdown:
      // observed here until it is observed there (ADR-0014), so a rebalance opens no period.
      handOver:
        this.config.handoverMs > 0
          ? {
              before: (cluster) => cluster.announceHandover(),
              after: (cluster) => this.handOver(cluster, leases),
            }
          : undefined,
      log: this.logger,
    });
    this.liveNodesWatch = liveNodes.watch((clusterId, set) => {
      if (set) this.liveNodeSets.set(clusterId, set);
      else this.liveNodeSets.delete(clusterId);
      owned.get(clusterId)?.apply(set ?? { clusterId, asOf: new Date().toISOString(), nodes: [] });
    });
    return owned;
  }

  /**
   * In order: the clusters handed over (each kept observed until its next owner is, ADR-0014), no
   * new notifications, then the pending signals, then what the buffer still holds.
   */
  override async onApplicationShutdown(): Promise<void> {
    const leases = this.leases;
    const handingOver = this.config.handoverMs > 0 && leases !== undefined;
    await this.owned
      ?.handOver(
        (cluster) => (handingOver ? this.handOver(cluster, leases!) : Promise.resolve()),
        // The handover mark is written before the lease goes: a successor then never reads a
        // plain "observing" mark and reports a crash that did not happen.
        (cluster) => (handingOver ? cluster.announceHandover() : Promise.resolve()),
      )
      .catch((err) => this.logger.warn(`could not hand the clusters over: ${(err as Error).message}`));
    await this.liveNodesWatch?.stop();
    this.coalescer.stop();
    await this.publisher.stop();
  }

  /** Keeps one cluster observed until the replica that took its lease is observing it too. */
  private async handOver(cluster: ClusterNotifications, leases: TypedKv<Lease>): Promise<void> {
    // A live replica claims a free lease within a third of the TTL: one still free after that
    // (and a little) has no taker: the last replica is going, and nobody will take it.
    const abandon = new AbortController();
    const claimCheck = setTimeout(
      async () => {
        const lease = await leases.get(leaseKey('notifier', cluster.target.id)).catch(() => null);
        if (!lease || lease.value.owner === this.owner) abandon.abort();
      },
      this.config.leaseTtlMs / 3 + CLAIM_MARGIN_MS,
    );
    const handedOver = await cluster.handOver(this.config.handoverMs, abandon.signal);
    clearTimeout(claimCheck);
    this.logger.log(
      handedOver
        ? `handed cluster ${cluster.target.name} over: its next owner was observing before these subscriptions closed`
        : `cluster ${cluster.target.name}: no replica took it over${abandon.signal.aborted ? '' : ' within NOTIFIER_HANDOVER_SECONDS'}`,
    );
  }
}
