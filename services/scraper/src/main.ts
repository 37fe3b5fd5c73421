import { bootstrapService } from '@artemis-studio/platform';
import { ScraperModule } from './app.module';

void bootstrapService(ScraperModule);
