import { Bus } from '@artemis-studio/bus';
import { buckets } from '@artemis-studio/contracts';
import { SecretVault } from '@artemis-studio/db';
import { BUS, DatabaseService } from '@artemis-studio/platform';
import { withTimeout } from '@artemis-studio/timing';
import { Inject, Injectable } from '@nestjs/common';
import { ClusterRegistry } from './clusters/cluster-registry';
import { GATEWAY_CONFIG, type GatewayConfig } from './gateway.config';
import { ApiError } from './http/api-error';
import { MetricQueries } from './state/metric-queries';
import { StateQueries } from './state/state-queries';

/** The gateway's access to PostgreSQL: a request while it is away is a 503 that says so, at once. */
@Injectable()
export class GatewayData {
  private readonly vault: SecretVault;

  constructor(
    private readonly database: DatabaseService,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.vault = SecretVault.fromBase64(config.secretKey);
  }

  async registry(): Promise<ClusterRegistry> {
    return new ClusterRegistry(await this.dataSource(), this.vault, () => this.bus.kv(buckets.capabilities));
  }

  async state(): Promise<StateQueries> {
    return new StateQueries(await this.dataSource());
  }

  async metrics(): Promise<MetricQueries> {
    return new MetricQueries(await this.dataSource());
  }

  private async dataSource() {
    const ready = await withTimeout(this.database.whenReady(), 50, () => null);
    if (!ready) throw new ApiError(503, 'DATABASE_UNAVAILABLE', 'PostgreSQL is not available');
    return ready;
  }
}
