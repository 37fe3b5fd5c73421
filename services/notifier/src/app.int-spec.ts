import { expectServiceToServe } from '@artemis-studio/testing';
import { NotifierModule } from './app.module';

describe('the notifier service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(NotifierModule);
  });
});
