import { Module } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { SCRAPER_CONFIG, type ScraperConfig } from '../scraper.config';
import { BrokerLanes } from './broker-lanes';
import { CallLimiter } from './call-limiter';
import { JolokiaClient } from './jolokia-client';

/**
 * Every Jolokia call of this replica goes through one client and its per-node call budget, and
 * every management call (actions, browsing, message jobs, the rings) through one lane per broker.
 */
@Module({
  providers: [
    {
      provide: JolokiaClient,
      useFactory: (config: ScraperConfig, registry: Registry) => {
        const refused = new Counter({
          name: 'studio_scraper_calls_refused_total',
          help: 'Jolokia calls refused by the per-node call budget',
          labelNames: ['node'],
          registers: [registry],
        });
        return new JolokiaClient(new CallLimiter(config.nodeCallsPerSecond, (node) => refused.inc({ node })));
      },
      inject: [SCRAPER_CONFIG, Registry],
    },
    BrokerLanes,
  ],
  exports: [JolokiaClient, BrokerLanes],
})
export class JolokiaModule {}
