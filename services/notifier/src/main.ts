import { bootstrapService } from '@artemis-studio/platform';
import { NotifierModule } from './app.module';

void bootstrapService(NotifierModule);
