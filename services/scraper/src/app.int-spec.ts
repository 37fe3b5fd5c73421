import { expectServiceToServe } from '@artemis-studio/testing';
import { ScraperModule } from './app.module';

describe('the scraper service', () => {
  it('boots against real PostgreSQL and NATS and reports ready', async () => {
    await expectServiceToServe(ScraperModule);
  });
});
