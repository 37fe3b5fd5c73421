import { createDataSource } from '@artemis-studio/db';
import { insertCluster, testDatabaseUrl } from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import type { AddressObservation } from './address-observation';
import { AddressSampleRepository } from './address-sample.repository';

const address = (
  name: string,
  sizeBytes: number,
  limitFraction: number | null = null,
): AddressObservation => ({
  name,
  sizeBytes,
  paging: false,
  pages: 0,
  limitFraction,
});

describe('AddressSampleRepository against real PostgreSQL', () => {
  let db: DataSource;
  let sut: AddressSampleRepository;
  let cluster: { id: string; nodeIds: string[] };
  // Long before any other test's samples: the reaper's cut-off below takes only these.
  const T0 = Date.parse('2020-01-01T00:00:00Z');

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    sut = new AddressSampleRepository({ whenReady: async () => db });
    cluster = await insertCluster(db, {
      nodes: [
        { name: 'a', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' },
        { name: 'b', jolokiaUrl: 'http://127.0.0.1:2/console/jolokia' },
      ],
    });
  });
  afterAll(async () => {
    await db.query(`DELETE FROM address_sample WHERE cluster_id = $1`, [cluster.id]);
    await db.query(`DELETE FROM cluster WHERE id = $1`, [cluster.id]);
    await db.destroy();
  });

  it("gives the sizes of a window back oldest first, each node's apart, for the forecasts", async () => {
    const [a, b] = cluster.nodeIds;
    for (const s of [0, 5, 10, 15]) {
      await sut.record(cluster.id, a, [address('orders', 1000 * s, s / 100)], new Date(T0 + s * 1000));
      await sut.record(cluster.id, b, [address('orders', 7)], new Date(T0 + s * 1000));
    }
    const sizes = await sut.sizesBetween(cluster.id, new Date(T0 + 5000), new Date(T0 + 15_000));
    expect(sizes).toEqual([
      expect.objectContaining({ nodeId: a, address: 'orders', atMs: T0 + 5000, sizeBytes: 5000 }),
      expect.objectContaining({ nodeId: b, address: 'orders', atMs: T0 + 5000, sizeBytes: 7 }),
      expect.objectContaining({ nodeId: a, address: 'orders', atMs: T0 + 10_000, sizeBytes: 10_000 }),
      expect.objectContaining({ nodeId: b, address: 'orders', atMs: T0 + 10_000, sizeBytes: 7 }),
    ]);
    const [unknown] = await db.query(
      `SELECT limit_percent FROM address_sample WHERE node_id = $1 AND sampled_at = $2`,
      [b, new Date(T0)],
    );
    expect(unknown.limit_percent).toBeNull();
  });

  it('reaps samples past the cut-off in batches, and only those', async () => {
    const reaped = await sut.reapSamples(new Date(T0 + 6000), 1);
    expect(reaped).toEqual({ rows: 4, partitions: 0 });
    const [{ left }] = await db.query(
      `SELECT count(*)::int AS left FROM address_sample WHERE cluster_id = $1`,
      [cluster.id],
    );
    expect(left).toBe(4);
  });
});
