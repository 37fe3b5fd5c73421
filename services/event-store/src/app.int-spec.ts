import { expectServiceToServe } from '@artemis-studio/testing';
import { EventStoreModule } from './app.module';

describe('the event-store service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(EventStoreModule);
  });
});
