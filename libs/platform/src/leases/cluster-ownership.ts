import { OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { InstallationGuard } from '../installation/installation-guard';
import { ownershipMetrics } from '../metrics/metrics';
import type { ClusterWork } from './cluster-work';
import type { OwnedClusters } from './owned-clusters';
import { replicaId } from './owned-clusters-on';

/**
 * The lifecycle of every service that owns clusters by lease (scraper, notifier): it starts owning
 * in the background once the app is up, without holding up its boot, and hands its leases back at
 * shutdown so another replica takes over at once. A start-up still under way when shutdown begins
 * fails as the bus drains under it, and that is no fault; any other start-up failure leaves the
 * replica owning nothing, so it crashes the process, to be restarted.
 */
export abstract class ClusterOwnership<W extends ClusterWork>
  implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown
{
  /** This process's name in the leases. */
  readonly owner = replicaId();
  protected owned?: OwnedClusters<W>;
  private stopping = false;

  protected abstract readonly logger: { warn(message: string): void };
  /** Owning starts once this is the only installation of Studio on its NATS (ADR-0031). */
  protected abstract readonly installation: Pick<InstallationGuard, 'whenAlone'>;

  /** Says on /metrics what this replica owns (clusters, their weight, the live replicas). */
  protected exposeOwnership(registry: Registry): void {
    ownershipMetrics(registry, () => this.owned?.ownership());
  }

  /** Connects what owning needs and returns the owned clusters, not yet running. */
  protected abstract own(): Promise<OwnedClusters<W>>;

  onApplicationBootstrap(): void {
    const start = async () => {
      await this.installation.whenAlone();
      if (this.stopping) return;
      const owned = await this.own();
      // Shut down while connecting: the shutdown found nothing to stop, so nothing may start now.
      // Without this the renewal ran after all, retrying every third of a TTL on closed
      // connections, and its timer held the process open for good.
      if (this.stopping) return owned.stop();
      this.owned = owned;
      await owned.run();
    };
    start().catch((err) => {
      if (this.stopping) return;
      throw err;
    });
  }

  onModuleDestroy(): void {
    this.stopping = true;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.owned
      ?.stop()
      .catch((err) => this.logger.warn(`could not release leases: ${(err as Error).message}`));
  }
}
