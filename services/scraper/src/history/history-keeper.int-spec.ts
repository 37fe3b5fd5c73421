import { createDataSource, QueueHourQueries } from '@artemis-studio/db';
import { randomUUID } from 'node:crypto';
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

  it("sums up each ended hour per queue once (its nodes' peaks added), and reads the bands back from them", async () => {
    const HOUR = 3_600_000;
    const hour = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
    const [cluster, nodeA, nodeB] = [randomUUID(), randomUUID(), randomUUID()];
    const sample = (minute: number, node: string, queue: string, depth: number, ended = false) =>
      db.query(
        `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, message_count, messages_added,
                                    messages_acknowledged, consumer_count, queue, ended)
         VALUES ($1, $2, $3, $4, 0, 0, 0, $5, $6)`,
        [new Date(hour + minute * 60_000), cluster, node, depth, queue, ended],
      );
    await sample(5, nodeA, 'orders', 30);
    await sample(25, nodeA, 'orders', 50);
    await sample(40, nodeB, 'orders', 20);
    await sample(50, nodeA, 'orders', 999, true); // an end: its figures no longer hold
    await sample(10, nodeA, 'audit', 3);
    await sample(61, nodeA, 'orders', 400); // the next hour's
    const summed = await sut.summarizeQueueHours();
    expect(summed).toBeGreaterThanOrEqual(2);
    expect(await sut.summarizeQueueHours()).toBe(0);
    const rows = await db.query(
      `SELECT queue, hour, depth_peak::int AS peak FROM queue_hour WHERE cluster_id = $1 ORDER BY hour, queue`,
      [cluster],
    );
    expect(rows).toEqual([
      { queue: 'audit', hour: new Date(hour), peak: 3 },
      { queue: 'orders', hour: new Date(hour), peak: 70 },
      { queue: 'orders', hour: new Date(hour + HOUR), peak: 400 },
    ]);

    // Two weeks of a depth of 10 at every hour: the band is 10, and each hour's chart has it.
    await db.query(
      `INSERT INTO queue_hour (cluster_id, queue, hour, depth_peak)
       SELECT $1, 'steady', h, 10 FROM generate_series($2::timestamptz - interval '15 days',
                                                       $2::timestamptz - interval '1 hour', interval '1 hour') h`,
      [cluster, new Date(hour)],
    );
    const hours = new QueueHourQueries(db);
    const bands = await hours.baselines(cluster, hour + 30 * 60_000);
    expect(bands.get('steady')).toEqual({ band: { low: 10, usual: 10, high: 10, weeks: 2 }, why: null });
    // Neither a queue the cluster has now nor seen at the band's hours: not read (no history).
    expect(bands.has('orders')).toBe(false);
    const chart = await hours.bands(cluster, 'steady', hour - 3 * HOUR, hour + HOUR);
    expect(chart.hours.map((h) => h.at)).toEqual([hour - 3 * HOUR, hour - 2 * HOUR, hour - HOUR, hour]);
    const young = await hours.bands(cluster, 'orders', hour, hour + HOUR);
    expect(young).toEqual({ hours: [], why: expect.stringMatching(/a band needs 2/) });
  });
});
