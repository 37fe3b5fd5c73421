import { expectServiceToRefuseEnvironment, expectServiceToServe } from '@artemis-studio/testing';
import { EventStoreModule } from './app.module';

describe('the event-store service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(EventStoreModule);
  });
  it('refuses a bad environment before starting anything: status 78, one line per problem', async () => {
    await expectServiceToRefuseEnvironment(
      'event-store',
      { DATABASE_URL: 'mysql://db/x', NATS_URL: 'foo', PORT: '99999' },
      ['DATABASE_URL', 'NATS_URL', 'PORT'],
    );
  });
});
