import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';

/** Every Jolokia call to a broker: tiered polling, persisted state, change-only signals, the live-node set (issue 3). */
@Module({
  imports: [PlatformModule.forService({ service: 'scraper', defaultPort: 8081 })],
})
export class ScraperModule {}
