import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/**
 * Alert notifications tried, by outcome (a receiver that keeps failing shows here and in the
 * delivery log), and resolved alerts reaped past their retention.
 */
@Injectable()
export class AlertMetrics {
  private readonly deliveries: Counter<'outcome'>;
  private readonly historyReaped: Counter;

  constructor(registry: Registry) {
    this.deliveries = new Counter({
      name: 'studio_alert_deliveries_total',
      help: 'Alert notifications tried (a receiver or the NATS subject), by outcome: delivered, retry, failed',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.historyReaped = new Counter({
      name: 'studio_alert_history_reaped_total',
      help: "Resolved alerts (with their delivery log) and receivers' test notifications removed past SCRAPER_ALERT_RETENTION_DAYS",
      registers: [registry],
    });
  }

  reaped(count: number): void {
    this.historyReaped.inc(count);
  }

  delivered(outcome: 'delivered' | 'retry' | 'failed'): void {
    this.deliveries.inc({ outcome });
  }
}
