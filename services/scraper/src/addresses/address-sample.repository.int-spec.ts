import { createDataSource } from '@artemis-studio/db';
import { insertCluster, testDatabaseUrl } from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import { AddressSampleRepository } from './address-sample.repository';
import type { AddressSampleRow } from './address-sampler';

const sampled = (name: string, sizeBytes: number, limitFraction: number | null = null): AddressSampleRow => ({
  name,
  sizeBytes,
  paging: false,
  pages: 0,
  limitFraction,
  ended: false,
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
    await db.query(`DELETE FROM queue_tick WHERE cluster_id = $1`, [cluster.id]);
    await db.query(`DELETE FROM cluster WHERE id = $1`, [cluster.id]);
    await db.destroy();
  });

  const tick = (nodeId: string, s: number) =>
    db.query(`INSERT INTO queue_tick (ticked_at, cluster_id, node_id) VALUES ($1, $2, $3)`, [
      new Date(T0 + s * 1000),
      cluster.id,
      nodeId,
    ]);

  it("gives the sizes held at each tick of a window back oldest first, each node's apart, for the forecasts", async () => {
    const [a, b] = cluster.nodeIds;
    // Node a's orders grows at every tick; node b's stays at 7 bytes, sampled once, and ends at 15 s.
    for (const s of [0, 5, 10, 15]) {
      await tick(a, s);
      await tick(b, s);
      await sut.record(cluster.id, a, [sampled('orders', 1000 * s, s / 100)], new Date(T0 + s * 1000));
    }
    await sut.record(cluster.id, b, [sampled('orders', 7)], new Date(T0));
    await sut.record(cluster.id, b, [{ ...sampled('orders', 7), ended: true }], new Date(T0 + 15_000));
    const sizes = await sut.sizesBetween(cluster.id, new Date(T0 + 5000), new Date(T0 + 20_000));
    const byNode = (node: string) =>
      sizes.filter((s) => s.nodeId === node).map((s) => [s.atMs - T0, s.sizeBytes]);
    expect(byNode(a)).toEqual([
      [5000, 5000],
      [10_000, 10_000],
      [15_000, 15_000],
    ]);
    expect(byNode(b)).toEqual([
      [5000, 7],
      [10_000, 7],
    ]);
    expect(sizes.map((s) => s.atMs)).toEqual([...sizes.map((s) => s.atMs)].sort((x, y) => x - y));
    const [unknown] = await db.query(
      `SELECT limit_percent FROM address_sample WHERE node_id = $1 AND sampled_at = $2`,
      [b, new Date(T0)],
    );
    expect(unknown.limit_percent).toBeNull();
  });

  it("gives a new owner each address's last sample on each node, unless it ended", async () => {
    const [a, b] = cluster.nodeIds;
    const open = await sut.openSamples(cluster.id, new Date(T0 + 20_000));
    const { ended: _, ...figures } = sampled('orders', 15_000, 0.15);
    expect(open).toEqual([{ nodeId: a, sampledAt: new Date(T0 + 15_000), address: figures }]);
    expect(open.some((o) => o.nodeId === b)).toBe(false);
  });

  it('reaps samples past the cut-off in batches, and only those', async () => {
    const reaped = await sut.reapSamples(new Date(T0 + 6000), 1);
    expect(reaped).toEqual({ rows: 3, partitions: 0 });
    const [{ left }] = await db.query(
      `SELECT count(*)::int AS left FROM address_sample WHERE cluster_id = $1`,
      [cluster.id],
    );
    expect(left).toBe(3);
  });
});
