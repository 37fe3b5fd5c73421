import { PlatformModule, serviceConfigModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { OwnershipModule } from './ownership/ownership.module';
import { QueuesModule } from './queues/queues.module';
import { SCRAPER_CONFIG, loadScraperConfig } from './scraper.config';

/** Every Jolokia call to a broker: tiered polling, persisted state, change-only signals, the live-node set, live reads. */
@Module({
  imports: [
    PlatformModule.forService({ service: 'scraper', defaultPort: 8081 }),
    ScheduleModule.forRoot(),
    serviceConfigModule(SCRAPER_CONFIG, loadScraperConfig),
    QueuesModule,
    OwnershipModule,
  ],
})
export class ScraperModule {}
