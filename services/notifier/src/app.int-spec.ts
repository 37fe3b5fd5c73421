import {
  expectServiceToRefuseEnvironment,
  expectServiceToServe,
  expectServiceToStopWhileStarting,
} from '@artemis-studio/testing';
import { NotifierModule } from './app.module';

describe('the notifier service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(NotifierModule);
  });

  it('stops cleanly while its ownership of clusters is still starting', async () => {
    await expectServiceToStopWhileStarting(NotifierModule);
  });
  it('refuses a bad environment before starting anything: status 78, one line per problem', async () => {
    await expectServiceToRefuseEnvironment(
      'notifier',
      { DATABASE_URL: 'not a url', NATS_URL: 'nats://', NOTIFIER_CREDIT_WINDOW: '0' },
      ['DATABASE_URL', 'NATS_URL', 'NOTIFIER_CREDIT_WINDOW', 'STUDIO_SECRET_KEY'],
    );
  });
});
