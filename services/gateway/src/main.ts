import { bootstrapService } from '@artemis-studio/platform';
import { GatewayModule } from './app.module';

void bootstrapService(GatewayModule);
