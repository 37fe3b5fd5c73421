import { Bus, type Stoppable } from '@artemis-studio/bus';
import { buckets, channels, subjects, type LiveNodeSet, type SignalTopic } from '@artemis-studio/contracts';
import {
  BUS,
  DatabaseService,
  OwnedClusters,
  SettingsService,
  ownedClustersFor,
  replicaId,
} from '@artemis-studio/platform';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleDestroy,
} from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { OWN_CLIENT_PREFIX, normaliseNotification } from '../events/broker-event.normaliser';
import { derivedTopics } from '../events/derived-topics';
import { NOTIFIER_CONFIG, type NotifierConfig } from '../notifier.config';
import { EventPublisher } from '../publishing/event-publisher';
import { TopicCoalescer } from '../signals/topic-coalescer';
import { ClusterNotifications } from '../subscriptions/cluster-notifications';

/**
 * The notifier's clusters: a lease each (as in the scraper), and for each one owned, one
 * notification subscription per live node, following `studio_live_nodes`. Every notification
 * becomes a BrokerEvent on the stream and touches the coalesced signals of what it made stale.
 */
@Injectable()
export class NotifierOwnershipService
  implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown
{
  /** Set as shutdown begins: a start-up still under way then fails as the bus drains, and that is no fault. */
  private stopping = false;
  private readonly logger = new Logger('Notifier');
  private owned?: OwnedClusters<ClusterNotifications>;
  private liveNodesWatch?: Stoppable;
  private readonly liveNodeSets = new Map<string, LiveNodeSet>();
  readonly owner = replicaId();
  readonly publisher: EventPublisher;
  readonly coalescer: TopicCoalescer;
  private readonly notifications: Counter<'outcome'>;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(NOTIFIER_CONFIG) private readonly config: NotifierConfig,
    private readonly database: DatabaseService,
    settings: SettingsService,
    registry: Registry,
  ) {
    this.notifications = new Counter({
      name: 'studio_notifier_notifications_total',
      help: 'Broker notifications received, by outcome (event, remote, own, malformed)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    const published = new Counter({
      name: 'studio_notifier_events_published_total',
      help: 'Broker events acknowledged by the stream',
      registers: [registry],
    });
    const dropped = new Counter({
      name: 'studio_notifier_events_dropped_total',
      help: 'Broker events dropped because the buffer was full (also reported to the event store)',
      labelNames: ['cluster'],
      registers: [registry],
    });
    const buffered = new Gauge({
      name: 'studio_notifier_events_buffered',
      help: 'Broker events waiting for the stream',
      registers: [registry],
    });
    const owned = () => this.owned?.all() ?? [];
    new Gauge({
      name: 'studio_notifier_subscriptions',
      help: 'Notification subscriptions currently attached',
      registers: [registry],
      collect() {
        this.set(owned().reduce((n, cluster) => n + cluster.subscribedNodes().length, 0));
      },
    });
    this.publisher = new EventPublisher(
      bus,
      () => config.bufferSize,
      {
        published: (n) => published.inc(n),
        dropped: (cluster, n) => dropped.inc({ cluster }, n),
        buffered: (n) => buffered.set(n),
      },
      this.logger,
    );
    this.coalescer = new TopicCoalescer(
      () => settings.get('artemis-studio.events.coalesce-window-millis'),
      (clusterId, topic) => this.signal(clusterId, topic),
    );
  }

  onApplicationBootstrap(): void {
    this.run().catch((err) => {
      if (this.stopping) return;
      // A start-up that fails otherwise leaves this replica owning nothing: crash, to be restarted.
      throw err;
    });
  }

  onModuleDestroy(): void {
    this.stopping = true;
  }

  /** The cluster's notifications, when this replica owns it. */
  cluster(clusterId: string): ClusterNotifications | undefined {
    return this.owned?.get(clusterId);
  }

  private async run(): Promise<void> {
    const dataSource = await this.database.whenReady();
    await this.bus.ready();
    const capabilities = await this.bus.kv(buckets.capabilities);
    const liveNodes = await this.bus.kv(buckets.liveNodes);
    this.owned = await ownedClustersFor({
      bus: this.bus,
      dataSource,
      service: 'notifier',
      owner: this.owner,
      secretKey: this.config.secretKey,
      leaseTtlMs: this.config.leaseTtlMs,
      start: (target) => {
        const cluster = new ClusterNotifications(target, {
          containerId: `${OWN_CLIENT_PREFIX}-${this.owner}`,
          creditWindow: this.config.creditWindow,
          onNotification: (clusterId, node, properties) => this.onNotification(clusterId, node, properties),
          putVerdict: (clusterId, verdict) =>
            void capabilities.put(clusterId, verdict).then(
              // Screens showing the verdict refetch it now rather than at their next poll.
              () => this.signal(clusterId, 'capabilities'),
              (err) => this.logger.warn(`verdict not written: ${(err as Error).message}`),
            ),
        });
        cluster.apply(this.liveNodeSets.get(target.id) ?? null);
        return cluster;
      },
      released: async (clusterId, deleted) => {
        if (deleted) await capabilities.delete(clusterId).catch(() => undefined);
      },
      log: this.logger,
    });
    this.liveNodesWatch = liveNodes.watch((clusterId, set) => {
      if (set) this.liveNodeSets.set(clusterId, set);
      else this.liveNodeSets.delete(clusterId);
      this.owned?.get(clusterId)?.apply(set ?? { clusterId, asOf: new Date().toISOString(), nodes: [] });
    });
    await this.owned.run();
  }

  private onNotification(
    clusterId: string,
    node: string,
    properties: Record<string, unknown> | undefined,
  ): void {
    const result = normaliseNotification(properties, clusterId, node, new Date());
    this.notifications.inc({ outcome: result.kind });
    if (result.kind === 'malformed') {
      this.logger.warn(`skipped a malformed notification from ${node}: ${result.reason}`);
      return;
    }
    if (result.kind !== 'event') return;
    this.publisher.enqueue(result.event);
    for (const topic of derivedTopics(result.event.type)) this.coalescer.touch(clusterId, topic);
  }

  private signal(clusterId: string, topic: SignalTopic): void {
    this.bus.publish(channels.signal, subjects.signal(clusterId, topic), {
      topic,
      clusterId,
      ts: new Date().toISOString(),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.liveNodesWatch?.stop();
    await this.owned
      ?.stop()
      .catch((err) => this.logger.warn(`could not release leases: ${(err as Error).message}`));
    this.coalescer.stop();
    await this.publisher.stop();
  }
}
