import { expectServiceToServe, expectServiceToStopWhileStarting } from '@artemis-studio/testing';
import { NotifierModule } from './app.module';

describe('the notifier service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(NotifierModule);
  });

  it('stops cleanly while its ownership of clusters is still starting', async () => {
    await expectServiceToStopWhileStarting(NotifierModule);
  });
});
