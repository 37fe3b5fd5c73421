import { bootstrapService } from '@artemis-studio/platform';
import { Logger } from '@nestjs/common';
import { NotifierModule } from './app.module';
import { NotifierEnvSchema } from './notifier.config';
import { tolerateLibraryCloseTimeouts } from './subscriptions/library-close-timeouts';

const logger = new Logger('Notifications');
tolerateLibraryCloseTimeouts((message) => logger.warn(message));

void bootstrapService(NotifierModule, { env: NotifierEnvSchema });
