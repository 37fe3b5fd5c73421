import { reapOlderThan } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { SCRAPER_CONFIG, type ScraperConfig } from '../../scraper.config';
import { AlertMetrics } from '../alert-metrics';

/**
 * Trims resolved alerts (and, by cascade, their delivery log) and receivers' test notifications
 * (of no alert) past their retention, hourly, in bounded batches: the alert history is bounded,
 * and what leaves it is counted.
 */
@Injectable()
export class AlertHistoryReaperService {
  private readonly logger = new Logger('AlertHistoryReaper');

  constructor(
    private readonly database: DatabaseService,
    private readonly metrics: AlertMetrics,
    @Inject(SCRAPER_CONFIG) private readonly config: ScraperConfig,
  ) {}

  @Interval(3_600_000)
  async reap(): Promise<number> {
    const cutOff = new Date(Date.now() - this.config.alertRetentionDays * 86_400_000);
    const db = await this.database.whenReady();
    const reaped =
      (await reapOlderThan(db, { table: 'alert', age: 'ended_at' }, cutOff, 1_000)) +
      (await reapOlderThan(
        db,
        { table: 'alert_delivery', age: 'created_at', scope: "transition = 'test'" },
        cutOff,
        1_000,
      ));
    if (reaped) {
      this.metrics.reaped(reaped);
      this.logger.log(
        `reaped ${reaped} resolved alerts and receiver tests older than ${this.config.alertRetentionDays} days`,
      );
    }
    return reaped;
  }
}
