import { createDataSource } from '@artemis-studio/db';
import { createTestDatabase, type TestDatabase } from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import type { ScraperConfig } from '../scraper.config';
import { NodeStateRepository } from '../topology/node-state.repository';
import { HistoryKeeperService } from './history-keeper.service';
import { QueueSnapshotRepository } from '../queues/queue-snapshot.repository';

describe('HistoryKeeperService against real PostgreSQL (ADR-0021)', () => {
  let database: TestDatabase;
  let db: DataSource;
  let sut: HistoryKeeperService;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    db = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
    const source = { whenReady: async () => db };
    sut = new HistoryKeeperService(
      source,
      new QueueSnapshotRepository(source),
      new NodeStateRepository(source),
      new AddressSampleRepository(source),
      { sampleRetentionHours: 24, rollupRetentionDays: new Map() } as unknown as ScraperConfig,
    );
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it("makes each history table's next six hours, once, from whenever it runs", async () => {
    // Ten days on, 30 minutes into an hour: that hour and the six after it are new, for four tables.
    const later = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 10 * 86_400_000 + 30 * 60_000);
    expect(await sut.makeHoursAhead(later)).toBe(4 * 7);
    expect(await sut.makeHoursAhead(later)).toBe(0);
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'node_sample'::regclass
          AND inhrelid::regclass::text >= $1`,
      [`node_sample_p${later.toISOString().slice(0, 13).replace(/\D/g, '')}`],
    );
    expect(n).toBe(7);
  });

  it('sorts each hour of every history table once it has ended, and not those past retention', async () => {
    // The 28 hours of the test above, seen 8 hours after the first: all ended, sorted once each.
    // The hours the migration made, 10 days before, are past the retention of a day: left alone.
    const later = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 10 * 86_400_000 + 8 * 3_600_000);
    expect(await sut.sortClosedHours(later)).toBe(4 * 7);
    expect(await sut.sortClosedHours(later)).toBe(0);
  });
});
