import { expectServiceToServe } from '@artemis-studio/testing';
import { GatewayModule } from './app.module';

describe('the gateway service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(GatewayModule);
  });
});
