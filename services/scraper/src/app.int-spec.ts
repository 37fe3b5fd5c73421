import { expectServiceToServe, expectServiceToStopWhileStarting } from '@artemis-studio/testing';
import { ScraperModule } from './app.module';

describe('the scraper service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(ScraperModule);
  });

  it('stops cleanly while its ownership of clusters is still starting', async () => {
    await expectServiceToStopWhileStarting(ScraperModule);
  });
});
