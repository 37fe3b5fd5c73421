import { PlatformModule } from '@artemis-studio/platform';
import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { OwnershipModule } from './ownership/ownership.module';
import { QueuesModule } from './queues/queues.module';
import { SCRAPER_CONFIG, loadScraperConfig } from './scraper.config';

/** The scraper's configuration, read once, for every feature. */
@Global()
@Module({
  providers: [{ provide: SCRAPER_CONFIG, useFactory: () => loadScraperConfig(process.env) }],
  exports: [SCRAPER_CONFIG],
})
class ScraperConfigModule {}

/** Every Jolokia call to a broker: tiered polling, persisted state, change-only signals, the live-node set, live reads. */
@Module({
  imports: [
    PlatformModule.forService({ service: 'scraper', defaultPort: 8081 }),
    ScheduleModule.forRoot(),
    ScraperConfigModule,
    QueuesModule,
    OwnershipModule,
  ],
})
export class ScraperModule {}
