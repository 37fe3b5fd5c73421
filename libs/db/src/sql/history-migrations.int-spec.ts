import { insertCluster } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { HourlyHistory1765200000000 } from '../migrations/1765200000000-hourly-history';
import { ChangeDrivenAddressSamples1765300000000 } from '../migrations/1765300000000-change-driven-address-samples';
import { QueueSnapshotRoomToUpdate1765400000000 } from '../migrations/1765400000000-queue-snapshot-room-to-update';
import { BrokerEventDays1765500000000 } from '../migrations/1765500000000-broker-event-days';
import { eventIdAt } from './time-partitions';
import { MigrationStack, acrossMigration } from './migration-stack.fixture';

describe('migrations of the history kept so far, against real PostgreSQL', () => {
  const stack = new MigrationStack();

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

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
});
