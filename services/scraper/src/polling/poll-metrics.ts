import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/**
 * Failed tier-A polls, per cluster, node and kind of failure (timeout, unreachable, unauthorized,
 * …): a node that blips unreachable for one tick shows here even when nobody saw it in the console.
 */
@Injectable()
export class PollMetrics {
  private readonly failures: Counter<'cluster' | 'node' | 'kind'>;

  constructor(registry: Registry) {
    this.failures = new Counter({
      name: 'studio_scraper_poll_failures_total',
      help: 'Tier-A polls of a node that failed, by cluster, node and kind of failure',
      labelNames: ['cluster', 'node', 'kind'],
      registers: [registry],
    });
  }

  pollFailed(cluster: string, node: string, kind: string): void {
    this.failures.inc({ cluster, node, kind });
  }
}
