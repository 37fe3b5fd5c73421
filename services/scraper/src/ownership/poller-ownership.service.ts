import { Bus } from '@artemis-studio/bus';
import { ownerRpcs } from '@artemis-studio/contracts';
import {
  BUS,
  ClusterOwnership,
  DatabaseService,
  InstallationGuard,
  type OwnedClusters,
  ownedClustersFor,
} from '@artemis-studio/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Registry } from 'prom-client';
import { CLUSTER_PARTS, type AnyClusterPart } from '../cluster-parts/cluster-part';
import { StartedParts } from '../cluster-parts/started-parts';
import { SCRAPER_CONFIG, type ScraperConfig } from '../scraper.config';

/**
 * Which clusters this replica polls: a lease per cluster in `studio_leases`. Owning a cluster
 * means running every part for it (polling first, ADR-0001) and answering its owner RPCs, so live
 * reads and actions spend the same per-node call budget as polling. Ownership knows no feature:
 * the parts are the scraper's wiring's (app.module.ts).
 */
@Injectable()
export class PollerOwnershipService extends ClusterOwnership<StartedParts> {
  protected readonly logger = new Logger('Ownership');

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(SCRAPER_CONFIG) private readonly config: ScraperConfig,
    @Inject(CLUSTER_PARTS) private readonly parts: readonly AnyClusterPart[],
    private readonly database: DatabaseService,
    protected readonly installation: InstallationGuard,
    registry: Registry,
  ) {
    super();
    this.exposeOwnership(registry);
  }

  protected async own(): Promise<OwnedClusters<StartedParts>> {
    const dataSource = await this.database.whenReady();
    await this.bus.ready();
    for (const part of this.parts) await part.connect?.();
    return ownedClustersFor({
      bus: this.bus,
      dataSource,
      service: 'scraper',
      owner: this.owner,
      secretKey: this.config.secretKey,
      leaseTtlMs: this.config.leaseTtlMs,
      start: (target) =>
        new StartedParts(
          target,
          this.parts,
          (clusterId, handlers) => this.bus.serveKeyed(ownerRpcs, handlers, clusterId),
          this.logger,
        ),
      released: (_, deleted, parts) => parts.released(deleted),
      log: this.logger,
    });
  }
}
