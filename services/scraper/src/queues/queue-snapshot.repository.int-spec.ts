import { MetricSampleEntity, createDataSource } from '@artemis-studio/db';
import { insertCluster, testDatabaseUrl } from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import type { QueueObservation } from './queue-observation';
import { QueueSnapshotRepository } from './queue-snapshot.repository';

const queue = (name: string, messageCount = 0): QueueObservation => ({
  name,
  address: name,
  routingType: 'ANYCAST',
  messageCount,
  consumerCount: 0,
  deliveringCount: 0,
  messagesAdded: messageCount,
  messagesAcknowledged: 0,
  messagesExpired: 0,
  messagesKilled: 0,
  paused: false,
  durable: true,
  temporary: false,
});

describe('QueueSnapshotRepository against real PostgreSQL', () => {
  let db: DataSource;
  let sut: QueueSnapshotRepository;
  let cluster: { id: string; nodeIds: string[] };

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    sut = new QueueSnapshotRepository(db);
    cluster = await insertCluster(db, {
      nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
    });
  });
  afterAll(() => db.destroy());

  it('reports inserts, real changes and removals, and nothing for an identical tick', async () => {
    const node = cluster.nodeIds[0];
    expect(await sut.sync(cluster.id, node, [queue('a'), queue('b')], new Date())).toEqual({
      changed: 2,
      removed: 0,
    });
    expect(await sut.sync(cluster.id, node, [queue('a'), queue('b')], new Date())).toEqual({
      changed: 0,
      removed: 0,
    });
    expect(await sut.sync(cluster.id, node, [queue('a', 3)], new Date())).toEqual({ changed: 1, removed: 1 });
    expect(await sut.sync(cluster.id, node, [], new Date())).toEqual({ changed: 0, removed: 1 });
  });

  it('reaps only samples older than the cut-off, in bounded batches', async () => {
    const node = cluster.nodeIds[0];
    const old = new Date(Date.now() - 48 * 3600_000);
    await sut.sync(cluster.id, node, [queue('x'), queue('y'), queue('z')], old);
    await sut.sync(cluster.id, node, [queue('x')], new Date());
    const samples = db.getRepository(MetricSampleEntity);
    const recent = await samples.countBy({ clusterId: cluster.id });
    expect(await sut.reapSamples(new Date(Date.now() - 24 * 3600_000), 2)).toBe(3);
    expect(await samples.countBy({ clusterId: cluster.id })).toBe(recent - 3);
  });
});
