import {
  expectServiceToRefuseEnvironment,
  expectServiceToServe,
  expectServiceToStopWhileStarting,
} from '@artemis-studio/testing';
import { ScraperModule } from './app.module';

describe('the scraper service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(ScraperModule);
  });

  it('stops cleanly while its ownership of clusters is still starting', async () => {
    await expectServiceToStopWhileStarting(ScraperModule);
  });
  it('refuses a bad environment before starting anything: status 78, one line per problem', async () => {
    await expectServiceToRefuseEnvironment(
      'scraper',
      { DATABASE_URL: 'mysql://db/x', NATS_URL: 'foo', LEASE_TTL_MS: '-5', STUDIO_SECRET_KEY: 'short' },
      ['DATABASE_URL', 'NATS_URL', 'LEASE_TTL_MS', 'STUDIO_SECRET_KEY'],
    );
  });
});
