import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** Alert notifications tried, by outcome: a receiver that keeps failing shows here and in the delivery log. */
@Injectable()
export class AlertMetrics {
  private readonly deliveries: Counter<'outcome'>;

  constructor(registry: Registry) {
    this.deliveries = new Counter({
      name: 'studio_alert_deliveries_total',
      help: 'Alert notifications tried (a receiver or the NATS subject), by outcome: delivered, retry, failed',
      labelNames: ['outcome'],
      registers: [registry],
    });
  }

  delivered(outcome: 'delivered' | 'retry' | 'failed'): void {
    this.deliveries.inc({ outcome });
  }
}
