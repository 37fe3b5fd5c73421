import { createTestDatabase } from '@artemis-studio/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { ClusterCredentialEntity, ClusterEntity } from '../entities';
import { SecretVault } from '../secret-vault';
import { createDataSource } from '../data-source';
import { migrate } from './migrate';
import { MIGRATIONS } from '../migrations';
import { ChangeDrivenQueueSamples1765000000000 } from '../migrations/1765000000000-change-driven-queue-samples';
import { NodeRollups1765100000000 } from '../migrations/1765100000000-node-rollups';
import { MigrationStack, acrossMigration } from './migration-stack.fixture';

describe('migrations against real PostgreSQL', () => {
  const stack = new MigrationStack();

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

  it('apply to an empty database, then again as a no-op', async () => {
    const sut = await stack.connect();
    expect(await migrate(sut)).toEqual(MIGRATIONS.map((m) => m.name));
    expect(await migrate(sut)).toEqual([]);
  });

  it('are serialised across replicas that start at once', async () => {
    const fresh = await createTestDatabase({ migrated: false });
    const replicas = await Promise.all(
      [1, 2, 3].map(() => createDataSource({ url: fresh.url, poolSize: 3 }).initialize()),
    );
    try {
      const applied = await Promise.all(replicas.map((ds) => migrate(ds)));
      expect(applied.flat()).toEqual(MIGRATIONS.map((m) => m.name));
    } finally {
      await Promise.all(replicas.map((ds) => ds.destroy()));
      await fresh.drop();
    }
  });

  it('create broker_event as an identity-keyed log partitioned by day, with fillfactor 100 and its indexes', async () => {
    const sut = await stack.connect();
    const [column] = await sut.query(
      `SELECT data_type, is_identity, identity_generation FROM information_schema.columns
        WHERE table_name = 'broker_event' AND column_name = 'seq'`,
    );
    expect(column).toEqual({ data_type: 'bigint', is_identity: 'YES', identity_generation: 'ALWAYS' });
    const [table] = await sut.query(`SELECT relkind FROM pg_class WHERE relname = 'broker_event'`);
    expect(table.relkind).toBe('p');
    const [partition] = await sut.query(
      `SELECT reloptions FROM pg_class WHERE relname = 'broker_event_default'`,
    );
    expect(partition.reloptions).toContain('fillfactor=100');
    const indexes = (
      await sut.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'broker_event'`)
    ).map((r: { indexname: string }) => r.indexname);
    expect(indexes).toEqual(
      expect.arrayContaining([
        'broker_event_event_id',
        'broker_event_cluster_seq',
        'broker_event_cluster_type_seq',
      ]),
    );
    await expect(
      sut.query(`INSERT INTO broker_event (seq, received_at, cluster_id, event_id, type, node, props)
                 VALUES (1, now(), gen_random_uuid(), gen_random_uuid(), 'X', 'n', '{}')`),
    ).rejects.toThrow(/non-DEFAULT value into column "seq"/);
  });

  it('match the entities, and a sealed credential survives a round trip through bytea', async () => {
    const sut = await stack.connect();
    const vault = new SecretVault(randomBytes(32));
    const cluster = await sut.getRepository(ClusterEntity).save({
      name: `c-${randomUUID()}`,
      jolokiaOrigin: null,
      nodes: [{ name: 'a', position: 0, jolokiaUrl: 'http://127.0.0.1:8161/console/jolokia', amqpUrl: null }],
    });
    await sut.getRepository(ClusterCredentialEntity).save({
      clusterId: cluster.id,
      kind: 'JOLOKIA',
      sealed: vault.seal('{"username":"u","password":"p"}', cluster.id, 'JOLOKIA'),
    });
    const stored = await sut
      .getRepository(ClusterCredentialEntity)
      .findOneByOrFail({ clusterId: cluster.id, kind: 'JOLOKIA' });
    expect(vault.open(stored.sealed, cluster.id, 'JOLOKIA')).toBe('{"username":"u","password":"p"}');
    const loaded = await sut
      .getRepository(ClusterEntity)
      .findOneOrFail({ where: { id: cluster.id }, relations: { nodes: true } });
    expect(loaded.nodes.map((n) => n.name)).toEqual(['a']);
  });

  it('keep the queue history sampled at every tick readable: its ticks are its sample times (ADR-0019)', async () => {
    const [cluster, a, b] = [randomUUID(), randomUUID(), randomUUID()];
    await acrossMigration(
      new ChangeDrivenQueueSamples1765000000000(),
      async (sut) => {
        // Two nodes' ticks as the scraper wrote them before: every queue at every tick.
        await sut.query(
          `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                      messages_acknowledged, consumer_count)
           SELECT now() - make_interval(secs => t * 15), $1::uuid, node, 'q' || q, 0, 0, 0, 0
             FROM generate_series(0, 3) t, generate_series(1, 5) q, unnest(ARRAY[$2::uuid, $3::uuid]) node`,
          [cluster, a, b],
        );
      },
      async (sut) => {
        const ticks = await sut.query(
          `SELECT node_id, count(*)::int AS n FROM queue_tick WHERE cluster_id = $1 GROUP BY 1 ORDER BY 2`,
          [cluster],
        );
        expect(ticks).toEqual([
          { node_id: expect.any(String), n: 4 },
          { node_id: expect.any(String), n: 4 },
        ]);
        const [{ ended }] = await sut.query(`SELECT count(*)::int AS ended FROM metric_sample WHERE ended`);
        expect(ended).toBe(0);
      },
    );
  });

  it("give the history kept so far its ticks' totals and rollups, as the scraper writes them (ADR-0020)", async () => {
    const [cluster, node] = [randomUUID(), randomUUID()];
    await acrossMigration(
      new NodeRollups1765100000000(),
      async (sut) => {
        // Queue a sampled at 10:00:00 (depth 4, 10 added so far) and at 10:00:45 (depth 1, 16 added);
        // b at 10:00:00 only (depth 2), ended at 10:01:10. Ticks every 15 s to 10:01:30.
        await sut.query(
          `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                      messages_acknowledged, consumer_count, ended)
           VALUES ('2026-11-30T10:00:00Z', $1, $2, 'a', 4, 10, 0, 1, false),
                  ('2026-11-30T10:00:45Z', $1, $2, 'a', 1, 16, 0, 1, false),
                  ('2026-11-30T10:00:00Z', $1, $2, 'b', 2, 0, 0, 0, false),
                  ('2026-11-30T10:01:10Z', $1, $2, 'b', 2, 0, 0, 0, true)`,
          [cluster, node],
        );
        await sut.query(
          `INSERT INTO queue_tick (ticked_at, cluster_id, node_id)
           SELECT timestamptz '2026-11-30T10:00:00Z' + make_interval(secs => 15 * t), $1, $2 FROM generate_series(0, 6) t`,
          [cluster, node],
        );
        await sut.query(
          `INSERT INTO node_sample (sampled_at, cluster_id, node_id, connection_count)
           VALUES ('2026-11-30T10:00:05Z', $1, $2, 3), ('2026-11-30T10:01:05Z', $1, $2, 8)`,
          [cluster, node],
        );
      },
      async (sut) => {
        const ticks = await sut.query(`SELECT depth::int, added::int FROM queue_tick ORDER BY ticked_at`);
        expect(ticks.map((t: { depth: number }) => t.depth)).toEqual([6, 6, 6, 3, 3, 1, 1]);
        expect(ticks.map((t: { added: number }) => t.added)).toEqual([0, 0, 0, 6, 0, 0, 0]);
        const rollups = await sut.query(
          `SELECT resolution_s, ticks, depth_min::int, depth_max::int, depth_last::int, added::int, connections_max
             FROM node_rollup ORDER BY resolution_s, bucket`,
        );
        expect(rollups).toEqual([
          {
            resolution_s: 60,
            ticks: 4,
            depth_min: 3,
            depth_max: 6,
            depth_last: 3,
            added: 6,
            connections_max: 3,
          },
          {
            resolution_s: 60,
            ticks: 3,
            depth_min: 1,
            depth_max: 3,
            depth_last: 1,
            added: 0,
            connections_max: 8,
          },
          {
            resolution_s: 3600,
            ticks: 7,
            depth_min: 1,
            depth_max: 6,
            depth_last: 1,
            added: 6,
            connections_max: 8,
          },
        ]);
      },
    );
  });
});
