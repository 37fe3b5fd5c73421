import { Bus } from '@artemis-studio/bus';
import { channels, subjects } from '@artemis-studio/contracts';
import { SecretVault } from '@artemis-studio/db';
import { BUS, DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SCRAPER_CONFIG, type ScraperConfig } from '../../scraper.config';
import { AlertMetrics } from '../alert-metrics';
import { AlertCourier } from './alert-courier';
import { AlertDeliveryRepository } from './alert-delivery.repository';
import { AlertReceiverQueries } from './alert-receiver.queries';
import { ALERT_CHANNELS } from './channels/alert-channels';

/** Who wants a cluster's notifications sent from this replica: its owner, or the fleet's watch. */
export type CourierHolder = 'owner' | 'stand-in';

/**
 * This replica's couriers: one per cluster whose notifications it sends, while its owner part runs
 * here, or while the fleet's watch finds nobody polling the cluster (its owner's courier is then
 * absent too, and the alert saying so would be told to nobody). Two replicas' couriers of one
 * cluster never send a delivery twice: each claim skips what another holds.
 */
@Injectable()
export class AlertCouriers {
  private readonly logger = new Logger('AlertDelivery');
  private connected?: Promise<(clusterId: string) => AlertCourier>;
  private make?: (clusterId: string) => AlertCourier;
  private readonly running = new Map<string, { courier: AlertCourier; holders: Set<CourierHolder> }>();

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(SCRAPER_CONFIG) private readonly config: ScraperConfig,
    private readonly database: DatabaseService,
    private readonly metrics: AlertMetrics,
  ) {}

  /** Connects once, whoever asks first. */
  async connect(): Promise<void> {
    this.connected ??= this.couriersOn();
    this.make = await this.connected;
  }

  /** Starts the cluster's courier unless one runs here already. */
  hold(clusterId: string, holder: CourierHolder): void {
    const running = this.running.get(clusterId);
    if (running) running.holders.add(holder);
    else {
      const courier = this.make!(clusterId);
      this.running.set(clusterId, { courier, holders: new Set([holder]) });
      courier.start();
    }
  }

  /** Stops the cluster's courier once nobody here holds it. */
  release(clusterId: string, holder: CourierHolder): void {
    const running = this.running.get(clusterId);
    if (!running?.holders.delete(holder) || running.holders.size > 0) return;
    running.courier.stop();
    this.running.delete(clusterId);
  }

  /** Sends what is owed now rather than at the next sweep (a transition was just committed). */
  kick(clusterId: string): void {
    this.running.get(clusterId)?.courier.kick();
  }

  private async couriersOn(): Promise<(clusterId: string) => AlertCourier> {
    const db = await this.database.whenReady();
    const deliveries = new AlertDeliveryRepository(db);
    const receivers = new AlertReceiverQueries(db, SecretVault.fromBase64(this.config.secretKey));
    return (clusterId) =>
      new AlertCourier(clusterId, {
        deliveries,
        receivers: (id, ids) => receivers.enabled(id, ids),
        channels: ALERT_CHANNELS,
        publish: async (id, state, at, alert) => {
          if (
            !this.bus.publish(channels.alert, subjects.alert(id, state), {
              state,
              at: at.toISOString(),
              alert,
            })
          )
            throw new Error('NATS is not connected');
          await this.bus.flush();
        },
        post: fetch,
        smtpCa: this.config.smtpCa,
        consoleUrl: this.config.consoleUrl,
        delivered: (outcome) => this.metrics.delivered(outcome),
        log: this.logger,
      });
  }
}
