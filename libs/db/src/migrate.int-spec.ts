import { createTestDatabase, insertCluster, type TestDatabase } from '@artemis-studio/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource, MigrationInterface } from 'typeorm';
import { createDataSource } from './data-source';
import { ClusterCredentialEntity, ClusterEntity } from './entities';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { ChangeDrivenQueueSamples1765000000000 } from './migrations/1765000000000-change-driven-queue-samples';
import { NodeRollups1765100000000 } from './migrations/1765100000000-node-rollups';
import { HourlyHistory1765200000000 } from './migrations/1765200000000-hourly-history';
import { ChangeDrivenAddressSamples1765300000000 } from './migrations/1765300000000-change-driven-address-samples';
import { QueueSnapshotRoomToUpdate1765400000000 } from './migrations/1765400000000-queue-snapshot-room-to-update';
import { BrokerEventDays1765500000000 } from './migrations/1765500000000-broker-event-days';
import { eventIdAt } from './time-partitions';
import { SecretVault } from './secret-vault';

/**
 * A fresh database migrated to the end with `migration` undone; `before` writes what the tables held
 * then, the migration is applied again, and `after` checks what it made of it.
 */
async function acrossMigration(
  migration: MigrationInterface,
  before: (db: DataSource) => Promise<void>,
  after: (db: DataSource) => Promise<void>,
): Promise<void> {
  const fresh = await createTestDatabase({ migrated: false });
  const db = await createDataSource({ url: fresh.url, poolSize: 2 }).initialize();
  try {
    await migrate(db);
    const runner = db.createQueryRunner();
    try {
      await migration.down(runner);
      await before(db);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    await after(db);
  } finally {
    await db.destroy();
    await fresh.drop();
  }
}

describe('migrations against real PostgreSQL', () => {
  let database: TestDatabase;
  const open: DataSource[] = [];
  const connect = async () => {
    const ds = await createDataSource({ url: database.url, poolSize: 3 }).initialize();
    open.push(ds);
    return ds;
  };

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
  });

  afterAll(async () => {
    await Promise.all(open.map((ds) => ds.destroy()));
    await database.drop();
  });

  it('apply to an empty database, then again as a no-op', async () => {
    const sut = await connect();
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

  it('partition the history kept so far by the hour, keeping every row and index (ADR-0021)', async () => {
    const [cluster, node] = [randomUUID(), randomUUID()];
    // An hour ago (kept in its hour's partition) and five days ago (older than the two days given
    // partitions: the default partition's).
    const hourAgo = new Date(Date.now() - 3_600_000);
    const daysAgo = new Date(Date.now() - 5 * 86_400_000);
    await acrossMigration(
      new HourlyHistory1765200000000(),
      async (sut) => {
        await sut.query(
          `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                      messages_acknowledged, consumer_count)
           VALUES ($1, $3, $4, 'q', 1, 0, 0, 0), ($2, $3, $4, 'q', 2, 0, 0, 0)`,
          [hourAgo, daysAgo, cluster, node],
        );
      },
      async (sut) => {
        const hour = `metric_sample_p${hourAgo.toISOString().slice(0, 13).replace(/\D/g, '')}`;
        expect(
          await sut.query(
            `SELECT tableoid::regclass::text AS part, message_count::int FROM metric_sample ORDER BY sampled_at`,
          ),
        ).toEqual([
          { part: 'metric_sample_default', message_count: 2 },
          { part: hour, message_count: 1 },
        ]);
        const [{ kind }] = await sut.query(
          `SELECT relkind AS kind FROM pg_class WHERE relname = 'metric_sample'`,
        );
        expect(kind).toBe('p');
        // Six hours ahead are there for the scraper's first ticks, each with the table's indexes.
        const ahead = `metric_sample_p${new Date(Date.now() + 5 * 3_600_000).toISOString().slice(0, 13).replace(/\D/g, '')}`;
        const indexes = await sut.query(`SELECT indexdef FROM pg_indexes WHERE tablename = $1`, [ahead]);
        expect(indexes.map((i: { indexdef: string }) => i.indexdef.replace(/^.* USING /, '')).sort()).toEqual(
          ['brin (sampled_at)', 'btree (cluster_id, queue, sampled_at)'],
        );
      },
    );
  });

  it('partition the broker events kept so far by the day of their id, keeping each seq, every index and the identity (ADR-0025)', async () => {
    const cluster = randomUUID();
    const day = (ms: number) => `broker_event_p${new Date(ms).toISOString().slice(0, 10).replace(/\D/g, '')}`;
    // Received two days ago and now; one id of the broker's time two days ago, one of now, and a
    // random one (an id of no day given a partition: the default partition's).
    const twoDaysAgo = Date.now() - 2 * 86_400_000;
    const ids = [
      eventIdAt(new Date(twoDaysAgo)).replace(/0{12}$/, '000000000001'),
      eventIdAt(new Date()).replace(/0{12}$/, '000000000002'),
      'f0000000-0000-4000-8000-000000000003',
    ];
    await acrossMigration(
      new BrokerEventDays1765500000000(),
      async (sut) => {
        await sut.query(
          `INSERT INTO broker_event (received_at, cluster_id, event_id, type, node, props)
           SELECT to_timestamp($1::float8 / 1000) + make_interval(days => i::int), $2, id::uuid, 'T', 'a', '{}'
             FROM unnest($3::text[]) WITH ORDINALITY AS v(id, i)`,
          [twoDaysAgo - 86_400_000, cluster, ids],
        );
      },
      async (sut) => {
        expect(
          await sut.query(`SELECT seq::int, tableoid::regclass::text AS part FROM broker_event ORDER BY seq`),
        ).toEqual([
          { seq: 1, part: day(twoDaysAgo) },
          { seq: 2, part: day(Date.now()) },
          { seq: 3, part: 'broker_event_default' },
        ]);
        // The identity goes on from the last seq, and an event id stays unique across the days.
        await sut.query(
          `INSERT INTO broker_event (received_at, cluster_id, event_id, type, node, props)
           VALUES (now(), $1, $2, 'T', 'a', '{}') ON CONFLICT (event_id) DO NOTHING`,
          [cluster, ids[1]],
        );
        const [{ seq }] = await sut.query(
          `INSERT INTO broker_event (received_at, cluster_id, event_id, type, node, props)
           VALUES (now(), $1, $2, 'T', 'a', '{}') RETURNING seq::int`,
          [cluster, eventIdAt(new Date()).replace(/0{12}$/, '000000000004')],
        );
        expect(seq).toBeGreaterThan(3);
        expect(await sut.query(`SELECT count(*)::int AS n FROM broker_event`)).toEqual([{ n: 4 }]);
        // Two days ahead are there for the event store's first writes, each with the table's indexes.
        const indexes = await sut.query(`SELECT indexdef FROM pg_indexes WHERE tablename = $1`, [
          day(Date.now() + 86_400_000),
        ]);
        expect(indexes.map((i: { indexdef: string }) => i.indexdef.replace(/^.* USING /, '')).sort()).toEqual(
          [
            'brin (received_at)',
            'btree (cluster_id, address, seq) WHERE (address IS NOT NULL)',
            'btree (cluster_id, queue, seq) WHERE (queue IS NOT NULL)',
            'btree (cluster_id, seq)',
            'btree (cluster_id, type, seq)',
            'btree (event_id)',
            'btree (seq, event_id)',
          ],
        );
      },
    );
  });

  it('end each address of the history kept so far where its node read on without it (ADR-0022)', async () => {
    const [cluster, node] = [randomUUID(), randomUUID()];
    const T = Date.now() - 600_000;
    const at = (tick: number) => new Date(T + tick * 15_000);
    await acrossMigration(
      new ChangeDrivenAddressSamples1765300000000(),
      async (sut) => {
        // Ticks 0..5. 'steady' read at each; 'gone' at 0 and 1 (removed); 'flaky' at 0, 1, 4, 5
        // (unread at 2 and 3); 'last' at 5 only, the node's last tick.
        await sut.query(
          `INSERT INTO queue_tick (ticked_at, cluster_id, node_id)
           SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => t * 15), $2, $3 FROM generate_series(0, 5) t`,
          [T, cluster, node],
        );
        await sut.query(
          `INSERT INTO address_sample (sampled_at, cluster_id, node_id, address, size_bytes, pages, paging)
           SELECT to_timestamp($1::float8 / 1000) + make_interval(secs => t * 15), $2, $3, a, t, 0, false
             FROM (VALUES ('steady', 0), ('steady', 1), ('steady', 2), ('steady', 3), ('steady', 4), ('steady', 5),
                          ('gone', 0), ('gone', 1), ('flaky', 0), ('flaky', 1), ('flaky', 4), ('flaky', 5),
                          ('last', 5)) AS v(a, t)`,
          [T, cluster, node],
        );
      },
      async (sut) => {
        const ends = await sut.query(
          `SELECT address, sampled_at AS at, size_bytes::int AS size FROM address_sample WHERE ended ORDER BY 1, 2`,
        );
        expect(ends).toEqual([
          { address: 'flaky', at: at(2), size: 1 },
          { address: 'gone', at: at(2), size: 1 },
        ]);
      },
    );
  });

  it("leave room in the queue snapshots' pages, so that a changed snapshot stays in its page", async () => {
    let node = '';
    /** The snapshots whose page changed when every 20th queue's depth did: none stays in a full page. */
    const moved = async (sut: DataSource) => {
      const where = `node_id = $1 AND substr(name, 3)::int % 20 = 0`;
      const pages = `SELECT name, (ctid::text::point)[0] AS page FROM queue_snapshot WHERE ${where}`;
      const before = await sut.query(pages, [node]);
      await sut.query(`UPDATE queue_snapshot SET message_count = message_count + 1 WHERE ${where}`, [node]);
      const after = new Map(
        (await sut.query(pages, [node])).map((r: { name: string; page: number }) => [r.name, r.page]),
      );
      return before.filter((r: { name: string; page: number }) => after.get(r.name) !== r.page).length;
    };
    await acrossMigration(
      new QueueSnapshotRoomToUpdate1765400000000(),
      async (sut) => {
        const cluster = await insertCluster(sut, {
          nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
        });
        node = cluster.nodeIds[0];
        await sut.query(
          `INSERT INTO queue_snapshot (node_id, cluster_id, observed_at, changed_at, name, address, routing_type,
             message_count, consumer_count, delivering_count, messages_added, messages_acknowledged,
             messages_expired, messages_killed, paused, durable, temporary)
           SELECT $1, $2, now(), now(), 'q.' || i, 'q.' || i, 'ANYCAST', 0, 1, 0, 0, 0, 0, 0, false, true, false
             FROM generate_series(1, 2000) i`,
          [node, cluster.id],
        );
        // As it was: full pages, so the new versions went elsewhere.
        expect(await moved(sut)).toBe(100);
      },
      async (sut) => {
        const [table] = await sut.query(`SELECT reloptions FROM pg_class WHERE relname = 'queue_snapshot'`);
        expect(table.reloptions).toContain('fillfactor=50');
        const [{ n }] = await sut.query(`SELECT count(*)::int AS n FROM queue_snapshot WHERE node_id = $1`, [
          node,
        ]);
        expect(n).toBe(2000);
        expect(await moved(sut)).toBe(0);
      },
    );
  });

  it('create broker_event as an identity-keyed log partitioned by day, with fillfactor 100 and its indexes', async () => {
    const sut = await connect();
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
    const sut = await connect();
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
});
