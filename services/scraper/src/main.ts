import { bootstrapService } from '@artemis-studio/platform';
import { ScraperModule } from './app.module';
import { ScraperEnvSchema } from './scraper.config';

void bootstrapService(ScraperModule, { env: ScraperEnvSchema });
