import { bootstrapService } from '@artemis-studio/platform';
import { NotifierModule } from './app.module';
import { NotifierEnvSchema } from './notifier.config';

void bootstrapService(NotifierModule, { env: NotifierEnvSchema });
