import { Bus } from '@artemis-studio/bus';
import { buckets } from '@artemis-studio/contracts';
import {
  BUS,
  DatabaseService,
  InstallationGuard,
  SettingsService,
  SignalPublisher,
} from '@artemis-studio/platform';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { AlertCouriers } from '../delivery/alert-couriers';
import { FleetFactsQueries } from './fleet-facts.queries';
import { FleetWatch } from './fleet-watch';
import { scopeEvaluationDeps } from './scope-evaluation-deps';

/** Runs this replica's fleet watch (FleetWatch) once per tier-A interval, one round at a time. */
@Injectable()
export class FleetWatchService implements OnApplicationShutdown {
  private readonly logger = new Logger('FleetWatch');
  private watch?: Promise<FleetWatch>;
  private running = false;
  private lastRoundMs = 0;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly database: DatabaseService,
    private readonly settings: SettingsService,
    private readonly signals: SignalPublisher,
    private readonly couriers: AlertCouriers,
    private readonly installation: InstallationGuard,
  ) {}

  /** Checked every second: a round is due once a tier-A interval has passed since the last began. */
  @Interval(1_000)
  async due(): Promise<void> {
    const intervalMs = this.settings.get('artemis-studio.scrape.tier-a-millis');
    if (this.running || Date.now() - this.lastRoundMs < intervalMs) return;
    this.running = true;
    this.lastRoundMs = Date.now();
    try {
      this.watch ??= this.connect();
      await (await this.watch).round(new Date());
    } catch (err) {
      this.watch = undefined;
      this.logger.warn(`the fleet's rules not evaluated: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    (await this.watch?.catch(() => undefined))?.stop();
  }

  private async connect(): Promise<FleetWatch> {
    // Another installation on this NATS would share the leases bucket: its clusters' leases are not ours.
    await this.installation.whenAlone();
    const db = await this.database.whenReady();
    await this.couriers.connect();
    return new FleetWatch({
      evaluation: scopeEvaluationDeps(db, {
        settings: this.settings,
        signals: this.signals,
        couriers: this.couriers,
        logger: this.logger,
      }),
      facts: new FleetFactsQueries(db, await this.bus.kv(buckets.leases)),
      standIn: (cluster, on) => {
        if (on) this.couriers.hold(cluster.id, 'stand-in');
        else this.couriers.release(cluster.id, 'stand-in');
        this.logger.log(
          on
            ? `sends the alert notifications of cluster ${cluster.name}: no scraper polls it`
            : `leaves the alert notifications of cluster ${cluster.name} to its owner`,
        );
      },
    });
  }
}
