import { expectServiceToRefuseEnvironment, expectServiceToServe } from '@artemis-studio/testing';
import { GatewayModule } from './app.module';

describe('the gateway service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(GatewayModule);
  });
  it('refuses a bad environment before starting anything: status 78, one line per problem', async () => {
    await expectServiceToRefuseEnvironment(
      'gateway',
      { STUDIO_SECRET_KEY: 'Y2hhbmdlLW1l', SSE_CLIENT_MAX_LAG_MS: '5', MIGRATE_ON_START: 'maybe' },
      ['STUDIO_SECRET_KEY', 'SSE_CLIENT_MAX_LAG_MS', 'MIGRATE_ON_START'],
    );
  });
});
