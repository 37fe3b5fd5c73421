import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { OwnershipService } from './ownership/ownership.service';
import { SampleReaperService } from './queues/sample-reaper.service';
import { SCRAPER_CONFIG, loadScraperConfig } from './scraper.config';

/** Every Jolokia call to a broker: tiered polling, persisted state, change-only signals, the live-node set, live reads. */
@Module({
  imports: [PlatformModule.forService({ service: 'scraper', defaultPort: 8081 }), ScheduleModule.forRoot()],
  providers: [
    { provide: SCRAPER_CONFIG, useFactory: () => loadScraperConfig(process.env) },
    OwnershipService,
    SampleReaperService,
  ],
})
export class ScraperModule {}
