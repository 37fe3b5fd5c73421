import { Bus, type TypedKv } from '@artemis-studio/bus';
import {
  buckets,
  channels,
  rpcs,
  subjects,
  type LiveNodeSet,
  type SignalTopic,
} from '@artemis-studio/contracts';
import { ClusterCatalog, SecretVault } from '@artemis-studio/db';
import { BUS, ClusterLeases, DatabaseService, SettingsService } from '@artemis-studio/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Counter, Registry } from 'prom-client';
import { CallLimiter } from '../jolokia/call-limiter';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { readLiveList } from '../live-lists/live-list.service';
import { ClusterPoller } from '../polling/cluster-poller';
import { QueueSnapshotRepository } from '../queues/queue-snapshot.repository';
import { SCRAPER_CONFIG, type ScraperConfig } from '../scraper.config';
import { NodeStateRepository } from '../topology/node-state.repository';

/**
 * Which clusters this replica polls: a lease per cluster in `studio_leases`, renewed every third
 * of its TTL. Owning a cluster means running its poller and answering its live-list reads;
 * registrations added, changed or deleted are picked up at the next renewal.
 */
@Injectable()
export class OwnershipService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Ownership');
  private readonly pollers = new Map<string, { poller: ClusterPoller; stopServing: () => void }>();
  private leases?: ClusterLeases;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  readonly jolokia: JolokiaClient;
  readonly owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(SCRAPER_CONFIG) private readonly config: ScraperConfig,
    private readonly database: DatabaseService,
    private readonly settings: SettingsService,
    registry: Registry,
  ) {
    const refused = new Counter({
      name: 'studio_scraper_calls_refused_total',
      help: 'Jolokia calls refused by the per-node call budget',
      labelNames: ['node'],
      registers: [registry],
    });
    this.jolokia = new JolokiaClient(
      new CallLimiter(config.nodeCallsPerSecond, (node) => refused.inc({ node })),
    );
  }

  onApplicationBootstrap(): void {
    void this.run();
  }

  /** The clusters this replica owns now. */
  ownedClusters(): string[] {
    return [...this.pollers.keys()];
  }

  private async run(): Promise<void> {
    const dataSource = await this.database.whenReady();
    await this.bus.ready();
    const catalog = new ClusterCatalog(dataSource, SecretVault.fromBase64(this.config.secretKey));
    const liveNodes = await this.bus.kv(buckets.liveNodes);
    this.leases = new ClusterLeases(
      await this.bus.kv(buckets.leases),
      'scraper',
      this.owner,
      this.config.leaseTtlMs,
    );
    const deps = {
      jolokia: this.jolokia,
      nodeStates: new NodeStateRepository(dataSource),
      queues: new QueueSnapshotRepository(dataSource),
      liveNodes,
      signal: (clusterId: string, topic: SignalTopic) =>
        this.bus.publish(channels.signal, subjects.signal(clusterId, topic), {
          topic,
          clusterId,
          ts: new Date().toISOString(),
        }),
      intervals: () => ({
        tierAMs: this.settings.get('artemis-studio.scrape.tier-a-millis'),
        tierBMs: this.settings.get('artemis-studio.scrape.tier-b-millis'),
      }),
      log: { warn: (m: string) => this.logger.warn(m) },
    };
    const renew = async () => {
      if (this.stopped) return;
      try {
        await this.reconcile(catalog, liveNodes, deps);
      } catch (err) {
        this.logger.warn(`lease renewal failed: ${(err as Error).message}`);
      }
      if (!this.stopped) this.timer = setTimeout(() => void renew(), this.config.leaseTtlMs / 3);
    };
    await renew();
  }

  private async reconcile(
    catalog: ClusterCatalog,
    liveNodes: TypedKv<LiveNodeSet>,
    deps: ConstructorParameters<typeof ClusterPoller>[1],
  ): Promise<void> {
    const targets = new Map((await catalog.list()).map((t) => [t.id, t]));
    const owned = await this.leases!.reconcile(targets.keys());
    for (const [clusterId, running] of this.pollers) {
      const target = targets.get(clusterId);
      if (owned.has(clusterId) && target?.revision === running.poller.target.revision) continue;
      running.poller.stop();
      running.stopServing();
      this.pollers.delete(clusterId);
      // A deleted cluster has no live nodes; one merely handed over keeps its set for the new owner.
      if (!target) await liveNodes.delete(clusterId).catch(() => undefined);
      this.logger.log(`${target ? 'released' : 'forgot deleted'} cluster ${target?.name ?? clusterId}`);
    }
    for (const clusterId of owned) {
      if (this.pollers.has(clusterId)) continue;
      const target = targets.get(clusterId)!;
      const poller = new ClusterPoller(target, deps);
      const stopServing = this.bus.serve(
        rpcs.liveList,
        async (request) => readLiveList(poller, this.jolokia, request.kind, request.page, request.pageSize),
        { key: clusterId },
      );
      this.pollers.set(clusterId, { poller, stopServing });
      poller.start();
      this.logger.log(`polling cluster ${target.name}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const { poller, stopServing } of this.pollers.values()) {
      poller.stop();
      stopServing();
    }
    this.pollers.clear();
    // Handing the leases back lets another replica take over at once instead of after a TTL.
    await this.leases
      ?.releaseAll()
      .catch((err) => this.logger.warn(`could not release leases: ${(err as Error).message}`));
  }
}
