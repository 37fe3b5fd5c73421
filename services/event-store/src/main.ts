import { BaseEnvSchema, bootstrapService } from '@artemis-studio/platform';
import { EventStoreModule } from './app.module';

void bootstrapService(EventStoreModule, { env: BaseEnvSchema });
