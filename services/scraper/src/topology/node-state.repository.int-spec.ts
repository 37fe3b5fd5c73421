import { createDataSource } from '@artemis-studio/db';
import { insertCluster, testDatabaseUrl } from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import type { NodeObservation } from './node-observation';
import { NodeStateRepository } from './node-state.repository';

describe('NodeStateRepository against real PostgreSQL', () => {
  let db: DataSource;
  let sut: NodeStateRepository;

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    sut = new NodeStateRepository({ whenReady: async () => db });
  });
  afterAll(() => db.destroy());

  it("samples a reachable node's own figures and rolls their peaks up per minute and per hour (ADR-0020)", async () => {
    const cluster = await insertCluster(db, {
      nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
    });
    const nodeId = cluster.nodeIds[0];
    const at = (seconds: number) => new Date(Date.UTC(2026, 10, 30, 17, 0, seconds));
    const observed = (
      seconds: number,
      connectionCount: number | null,
      reachable = true,
    ): NodeObservation => ({
      nodeId,
      name: 'n',
      observedAt: at(seconds),
      lastOkAt: at(seconds),
      reachable,
      role: 'live',
      active: true,
      backup: false,
      replicaSync: null,
      brokerNodeId: null,
      brokerName: null,
      version: '2.40.0',
      uptimeMs: 1000,
      connectionCount,
      diskUsage: 0.5,
      diskLimit: 0.9,
      memoryBytes: seconds * 1000,
      memoryLimitBytes: 1_000_000,
      reason: null,
      lastRole: 'live',
      roleChangedAt: null,
    });
    for (const [seconds, connections] of [
      [0, 3],
      [20, 7],
      [40, null], // the broker did not say: the peak stays
      [70, 2],
    ] as const)
      expect(await sut.save(cluster.id, [observed(seconds, connections)])).toBe(true);
    // Unreachable: nothing sampled, nothing rolled up.
    await sut.save(cluster.id, [{ ...observed(90, 50, false), connectionCount: 50 }]);
    const rollups = await db.query(
      `SELECT resolution_s, bucket, connections_max, memory_bytes_max::int, ticks, depth_max
         FROM node_rollup WHERE node_id = $1 ORDER BY resolution_s, bucket`,
      [nodeId],
    );
    expect(rollups).toEqual([
      {
        resolution_s: 60,
        bucket: at(0),
        connections_max: 7,
        memory_bytes_max: 40_000,
        ticks: 0,
        depth_max: null,
      },
      {
        resolution_s: 60,
        bucket: at(60),
        connections_max: 2,
        memory_bytes_max: 70_000,
        ticks: 0,
        depth_max: null,
      },
      {
        resolution_s: 3600,
        bucket: at(0),
        connections_max: 7,
        memory_bytes_max: 70_000,
        ticks: 0,
        depth_max: null,
      },
    ]);
    await db.query(`DELETE FROM cluster WHERE id = $1`, [cluster.id]);
  });
});
