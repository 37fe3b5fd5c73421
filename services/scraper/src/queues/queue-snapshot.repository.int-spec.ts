import { createDataSource, SAMPLE_HEARTBEAT_MS } from '@artemis-studio/db';
import { insertCluster, testDatabaseUrl, waitFor } from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import type { QueueObservation } from './queue-observation';
import { observedQueue } from './queue-observation.fixture';
import { QueueSnapshotRepository } from './queue-snapshot.repository';
import { StoredQueues } from './stored-queues';

const queue = (name: string, messageCount = 0) =>
  observedQueue(name, { messageCount, messagesAdded: messageCount });

/** A cluster of one node nobody polls: these tests write its snapshots themselves. */
const oneNodeCluster = { nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }] };

describe('QueueSnapshotRepository against real PostgreSQL', () => {
  let db: DataSource;
  let sut: QueueSnapshotRepository;
  let cluster: { id: string; nodeIds: string[] };

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 4 }).initialize();
    sut = new QueueSnapshotRepository({ whenReady: async () => db });
    cluster = await insertCluster(db, oneNodeCluster);
  });
  afterAll(() => db.destroy());

  it('reports inserts, real changes and removals, and nothing for an identical tick', async () => {
    const node = cluster.nodeIds[0];
    expect(await sut.sync(cluster.id, node, [queue('a'), queue('b')], new Date())).toEqual({
      changed: 2,
      removed: 0,
      sampled: 2,
      storedMissing: 0,
    });
    expect(await sut.sync(cluster.id, node, [queue('a'), queue('b')], new Date())).toEqual({
      changed: 0,
      removed: 0,
      sampled: 0,
      storedMissing: 0,
    });
    expect(await sut.sync(cluster.id, node, [queue('a', 3)], new Date())).toEqual({
      changed: 1,
      removed: 1,
      sampled: 1,
      storedMissing: 0,
    });
    expect(await sut.sync(cluster.id, node, [], new Date())).toEqual({
      changed: 0,
      removed: 1,
      sampled: 0,
      storedMissing: 0,
    });
  });

  it('keeps when the oldest message was sent, and counts a new head as a change, the same head as none', async () => {
    const node = cluster.nodeIds[0];
    const head = new Date('2026-12-01T10:00:00.000Z');
    await sut.sync(cluster.id, node, [{ ...queue('h', 2), firstMessageAt: head }], new Date());
    expect(
      await sut.sync(cluster.id, node, [{ ...queue('h', 2), firstMessageAt: head }], new Date()),
    ).toEqual({
      changed: 0,
      removed: 0,
      sampled: 0,
      storedMissing: 0,
    });
    const next = new Date('2026-12-01T10:00:05.000Z');
    expect(
      await sut.sync(cluster.id, node, [{ ...queue('h', 2), firstMessageAt: next }], new Date()),
    ).toEqual({
      changed: 1,
      removed: 0,
      sampled: 1,
      storedMissing: 0,
    });
    const [row] = (await db.query(
      `SELECT first_message_at FROM queue_snapshot WHERE node_id = $1 AND name = 'h'`,
      [node],
    )) as { first_message_at: Date }[];
    expect(row.first_message_at.toISOString()).toBe(next.toISOString());
    await sut.sync(cluster.id, node, [], new Date());
  });

  it('keeps an unread queue as it was: neither removed nor updated', async () => {
    const node = cluster.nodeIds[0];
    const first = new Date(Date.UTC(2026, 10, 30, 13, 0, 0));
    await sut.sync(cluster.id, node, [queue('kept', 5), queue('gone', 1)], first);
    expect(await sut.sync(cluster.id, node, [], new Date(first.getTime() + 5000), ['kept'])).toEqual({
      changed: 0,
      removed: 1,
      sampled: 0,
      storedMissing: 0,
    });
    const rows = await db.query(
      `SELECT name, message_count, observed_at FROM queue_snapshot WHERE node_id = $1`,
      [node],
    );
    expect(rows).toEqual([{ name: 'kept', message_count: '5', observed_at: first }]);
    await sut.sync(cluster.id, node, [], new Date());
  });

  it("stores each counter's rate over the interval, unknown at first sight and after a counter reset", async () => {
    const node = cluster.nodeIds[0];
    const rates = async () => {
      const [row] = await db.query(
        `SELECT added_per_second, acknowledged_per_second, expired_per_second, killed_per_second
           FROM queue_snapshot WHERE node_id = $1 AND name = 'r'`,
        [node],
      );
      return [
        row.added_per_second,
        row.acknowledged_per_second,
        row.expired_per_second,
        row.killed_per_second,
      ];
    };
    const at = (seconds: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, seconds));
    const counters = (added: number, acknowledged: number, expired: number, killed: number) => ({
      ...queue('r'),
      messagesAdded: added,
      messagesAcknowledged: acknowledged,
      messagesExpired: expired,
      messagesKilled: killed,
    });
    await sut.sync(cluster.id, node, [counters(100, 50, 0, 0)], at(0));
    expect(await rates()).toEqual([null, null, null, null]);
    await sut.sync(cluster.id, node, [counters(150, 60, 4, 0)], at(5));
    expect(await rates()).toEqual([10, 2, 0.8, 0]);
    // The broker restarted: its counters start again from zero; the rate is unknown, not negative.
    await sut.sync(cluster.id, node, [counters(3, 1, 0, 0)], at(10));
    expect(await rates()).toEqual([null, null, null, 0]);
    await sut.sync(cluster.id, node, [], at(15));
  });

  it('samples a queue when it changed or its heartbeat is due, ends its series where it is not known, and ticks each read', async () => {
    const own = await insertCluster(db, oneNodeCluster);
    const node = own.nodeIds[0];
    const t0 = Date.UTC(2026, 10, 30, 14, 0, 0);
    const at = (ms: number) => new Date(t0 + ms);
    const sampled = async (...args: [QueueObservation[], Date, string[]?]) =>
      (await sut.sync(own.id, node, ...args))?.sampled;
    expect(await sampled([queue('q', 1), queue('p')], at(0))).toBe(2);
    expect(await sampled([queue('q', 1), queue('p')], at(15_000))).toBe(0);
    expect(await sampled([queue('q', 2), queue('p')], at(30_000))).toBe(1);
    // A heartbeat after ten minutes unchanged: p's is due, q's (sampled at 30 s) not yet.
    expect(await sampled([queue('q', 2), queue('p')], at(SAMPLE_HEARTBEAT_MS + 15_000))).toBe(1);
    // p unread: its series ends, and the next read samples it afresh though it did not change.
    expect(await sampled([queue('q', 2)], at(SAMPLE_HEARTBEAT_MS + 20_000), ['p'])).toBe(0);
    expect(await sampled([queue('q', 2)], at(SAMPLE_HEARTBEAT_MS + 25_000), ['p'])).toBe(0);
    expect(await sampled([queue('q', 2), queue('p')], at(SAMPLE_HEARTBEAT_MS + 28_000))).toBe(1);
    // The node is no longer live: both series end.
    expect(await sut.clearNode(node)).toBe(2);
    const rows = (await db.query(
      `SELECT queue, message_count::int AS depth, ended, ((extract(epoch FROM sampled_at) * 1000)::bigint - $2)::int AS ms
         FROM metric_sample WHERE cluster_id = $1 AND sampled_at < $3 ORDER BY sampled_at, queue`,
      [own.id, t0, at(SAMPLE_HEARTBEAT_MS + 61_000)],
    )) as { queue: string; depth: number; ended: boolean; ms: number }[];
    const H = SAMPLE_HEARTBEAT_MS;
    expect(rows).toEqual([
      { queue: 'p', depth: 0, ended: false, ms: 0 },
      { queue: 'q', depth: 1, ended: false, ms: 0 },
      { queue: 'q', depth: 2, ended: false, ms: 30_000 },
      { queue: 'p', depth: 0, ended: false, ms: H + 15_000 },
      { queue: 'p', depth: 0, ended: true, ms: H + 20_000 },
      { queue: 'p', depth: 0, ended: false, ms: H + 28_000 },
    ]);
    const ended = (await db.query(
      `SELECT queue FROM metric_sample WHERE cluster_id = $1 AND ended AND sampled_at > $2 ORDER BY queue`,
      [own.id, at(SAMPLE_HEARTBEAT_MS + 61_000)],
    )) as { queue: string }[];
    expect(ended.map((r) => r.queue)).toEqual(['p', 'q']);
    const ticks = (await db.query(`SELECT count(*)::int AS n FROM queue_tick WHERE node_id = $1`, [node]))[0]
      .n;
    expect(ticks).toBe(7);
  });

  it('rewrites an unchanged snapshot only to say its rates fell to 0, and rates a change over the last interval', async () => {
    const own = await insertCluster(db, oneNodeCluster);
    const node = own.nodeIds[0];
    const at = (seconds: number) => new Date(Date.UTC(2026, 10, 30, 15, 0, seconds));
    const row = async () =>
      (
        (await db.query(
          `SELECT observed_at, added_per_second AS rate FROM queue_snapshot WHERE node_id = $1 AND name = 'w'`,
          [node],
        )) as { observed_at: Date; rate: number | null }[]
      )[0];
    const tick = (added: number, seconds: number) =>
      sut.sync(own.id, node, [{ ...queue('w'), messagesAdded: added }], at(seconds));
    await tick(100, 0);
    await tick(100, 15); // rate unknown until now: 0 is written
    expect(await row()).toEqual({ observed_at: at(15), rate: 0 });
    await tick(100, 30);
    await tick(100, 45);
    expect(await row()).toEqual({ observed_at: at(15), rate: 0 }); // not rewritten
    await tick(130, 60);
    // 30 messages since the tick at 45 s, when the stored counter was last read: 2 a second.
    expect(await row()).toEqual({ observed_at: at(60), rate: 2 });
    await tick(130, 75);
    expect(await row()).toEqual({ observed_at: at(75), rate: 0 });
  });

  it("writes each tick with its node's queue totals and rolls them up per minute and per hour (ADR-0020)", async () => {
    const own = await insertCluster(db, oneNodeCluster);
    const node = own.nodeIds[0];
    // In 1999: the rollups' reaper deletes across clusters, and only these are that old.
    const at = (seconds: number) => new Date(Date.UTC(1999, 10, 30, 16, 0, seconds));
    const waiting = new Date(Date.UTC(1999, 10, 30, 15, 59, 0));
    const observed = (name: string, depth: number, added: number, firstMessageAt: Date | null = null) =>
      observedQueue(name, { messageCount: depth, messagesAdded: added, consumerCount: 1, firstMessageAt });
    await sut.sync(own.id, node, [observed('a', 5, 100, waiting), observed('b', 1, 10)], at(0));
    // b's counter went back (the broker restarted): its 4 count from zero.
    await sut.sync(own.id, node, [observed('a', 9, 130, waiting), observed('b', 0, 4)], at(30));
    // Unchanged: no sample written, the totals all the same.
    await sut.sync(own.id, node, [observed('a', 9, 130, waiting), observed('b', 0, 4)], at(45));
    await sut.sync(own.id, node, [observed('a', 2, 131, waiting)], at(75));
    const ticks = await db.query(
      `SELECT depth::int, consumers::int, added::int, extract(epoch FROM ticked_at - oldest_message_at)::int AS waited
         FROM queue_tick WHERE node_id = $1 ORDER BY ticked_at`,
      [node],
    );
    expect(ticks).toEqual([
      { depth: 6, consumers: 2, added: 0, waited: 60 },
      { depth: 9, consumers: 2, added: 30 + 4, waited: 90 },
      { depth: 9, consumers: 2, added: 0, waited: 105 },
      { depth: 2, consumers: 1, added: 1, waited: 135 },
    ]);
    const rollups = await db.query(
      `SELECT resolution_s, bucket, ticks, depth_min::int, depth_max::int, depth_last::int, added::int,
              oldest_seconds_max
         FROM node_rollup WHERE node_id = $1 ORDER BY resolution_s, bucket`,
      [node],
    );
    expect(rollups).toEqual([
      {
        resolution_s: 60,
        bucket: at(0),
        ticks: 3,
        depth_min: 6,
        depth_max: 9,
        depth_last: 9,
        added: 34,
        oldest_seconds_max: 105,
      },
      {
        resolution_s: 60,
        bucket: at(60),
        ticks: 1,
        depth_min: 2,
        depth_max: 2,
        depth_last: 2,
        added: 1,
        oldest_seconds_max: 135,
      },
      {
        resolution_s: 3600,
        bucket: at(0),
        ticks: 4,
        depth_min: 2,
        depth_max: 9,
        depth_last: 2,
        added: 35,
        oldest_seconds_max: 135,
      },
    ]);
    // Each resolution is reaped on its own.
    expect(await sut.reapRollups(60, at(60))).toBe(1);
    expect(
      await db.query(`SELECT resolution_s FROM node_rollup WHERE node_id = $1 ORDER BY resolution_s`, [node]),
    ).toEqual([{ resolution_s: 60 }, { resolution_s: 3600 }]);
    // Out of the way of the samples' reaper below, which counts what it deletes before 2001.
    for (const table of ['metric_sample', 'queue_tick', 'node_rollup'])
      await db.query(`DELETE FROM ${table} WHERE cluster_id = $1`, [own.id]);
  });

  it('writes the same history when the queues whose figures are stored are sent by name only', async () => {
    const [full, other] = [await insertCluster(db, oneNodeCluster), await insertCluster(db, oneNodeCluster)];
    // Never all in full once a heartbeat, so that the heartbeat's tick too goes by name.
    const stored = new StoredQueues(Number.POSITIVE_INFINITY);
    let byName = 0;
    const t0 = Date.UTC(2026, 10, 30, 16, 0, 0);
    const H = SAMPLE_HEARTBEAT_MS;
    // Ticks: changes, rates falling to 0, a heartbeat, a queue unread, one removed, one new.
    const ticks: [number, QueueObservation[], string[]][] = [
      [0, [queue('a', 1), queue('b'), queue('c')], []],
      [15_000, [queue('a', 1), queue('b', 2), queue('c')], []],
      [30_000, [queue('a', 1), queue('b', 2), queue('c')], []],
      [H + 15_000, [queue('a', 1), queue('b', 2)], ['c']],
      [H + 30_000, [queue('a', 4), queue('b', 2), queue('c')], []],
      [H + 45_000, [queue('b', 2), queue('c'), queue('d', 7)], []],
    ];
    for (const [ms, queues, unread] of ticks) {
      const at = new Date(t0 + ms);
      const sent = await sut.sync(full.id, full.nodeIds[0], queues, at, unread);
      const tick = stored.split(queues, at);
      byName += tick.stored.length;
      const split = await sut.sync(other.id, other.nodeIds[0], tick.changed, at, unread, tick.stored);
      expect(split).toEqual(sent);
      stored.wrote(queues);
    }
    expect(byName).toBe(10);
    const history = async (cluster: string) => ({
      snapshots: await db.query(
        `SELECT name, observed_at, changed_at, sampled_at, message_count, messages_added, added_per_second
           FROM queue_snapshot WHERE cluster_id = $1 ORDER BY name`,
        [cluster],
      ),
      samples: await db.query(
        `SELECT sampled_at, queue, message_count, messages_added, ended FROM metric_sample
          WHERE cluster_id = $1 ORDER BY sampled_at, queue`,
        [cluster],
      ),
      ticks: await db.query(
        `SELECT ticked_at, depth, consumers, added, acknowledged FROM queue_tick WHERE cluster_id = $1 ORDER BY ticked_at`,
        [cluster],
      ),
    });
    const written = await history(full.id);
    expect(written.samples.length).toBeGreaterThan(6);
    expect(await history(other.id)).toEqual(written);
  });

  it('says how many queues sent by name had no snapshot, and leaves them out', async () => {
    const own = await insertCluster(db, oneNodeCluster);
    const node = own.nodeIds[0];
    await sut.sync(own.id, node, [queue('kept', 2)], new Date());
    expect(await sut.sync(own.id, node, [], new Date(), [], ['kept', 'never-written'])).toEqual({
      changed: 0,
      removed: 0,
      sampled: 0,
      storedMissing: 1,
    });
    const names = (await db.query(`SELECT name FROM queue_snapshot WHERE node_id = $1`, [node])) as {
      name: string;
    }[];
    expect(names).toEqual([{ name: 'kept' }]);
  });

  it('reaps only samples older than the cut-off, in bounded batches', async () => {
    // Its own cluster and a cut-off in the year 2000: the reaper deletes across clusters, and
    // the other tests' samples carry fixed dates that a cut-off relative to the clock catches
    // once the calendar has passed them.
    const own = await insertCluster(db, oneNodeCluster);
    const node = own.nodeIds[0];
    await sut.sync(own.id, node, [queue('x'), queue('y'), queue('z')], new Date(Date.UTC(2000, 0, 1)));
    await sut.sync(own.id, node, [queue('x')], new Date());
    const samples = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM metric_sample WHERE cluster_id = $1`, [own.id]))[0].n;
    // x, y, z; x again (its heartbeat long due), y and z ended (removed); a tick each.
    expect(await samples()).toBe(6);
    expect(await sut.reapSamples(new Date(Date.UTC(2001, 0, 1)), 2)).toEqual({ rows: 3 + 1, partitions: 0 });
    expect(await samples()).toBe(3);
  });

  describe('beside a deletion of the cluster', () => {
    /** Backends of this database waiting for a lock while running a statement that mentions `text`. */
    const waitingOn = async (text: string) =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
          [`%${text}%`],
        )
      )[0].n > 0;

    it('lets the deletion wait for a tick already writing, rather than deadlock with it', async () => {
      const doomed = await insertCluster(db, oneNodeCluster);
      const node = doomed.nodeIds[0];
      await sut.sync(doomed.id, node, [queue('a', 1), queue('b', 1)], new Date());
      // A third party holds the node row, so the tick stops after locking its snapshot rows (at its
      // node key check) and the deletion stops in its cascade: the order that used to deadlock.
      const gate = db.createQueryRunner();
      await gate.startTransaction();
      await gate.query(`SELECT 1 FROM cluster_node WHERE id = $1 FOR UPDATE`, [node]);
      try {
        const tick = sut.sync(doomed.id, node, [queue('a', 2), queue('b', 2), queue('c', 1)], new Date());
        // Its statement's beginning: pg_stat_activity keeps the first 1,024 bytes of a query.
        await waitFor('the tick to wait', () => waitingOn('WITH stored AS'));
        const deletion = db.query(`DELETE FROM cluster WHERE id = $1`, [doomed.id]);
        await waitFor('the deletion to wait', () => waitingOn('DELETE FROM cluster'));
        await gate.rollbackTransaction();
        expect(await tick).toEqual({ changed: 3, removed: 0, sampled: 3, storedMissing: 0 });
        await deletion;
      } finally {
        if (gate.isTransactionActive) await gate.rollbackTransaction();
        await gate.release();
      }
      expect(await db.query(`SELECT 1 FROM queue_snapshot WHERE node_id = $1`, [node])).toEqual([]);
    });

    it('writes nothing for a cluster deleted before its tick, and says so', async () => {
      const doomed = await insertCluster(db, oneNodeCluster);
      await db.query(`DELETE FROM cluster WHERE id = $1`, [doomed.id]);
      expect(await sut.sync(doomed.id, doomed.nodeIds[0], [queue('a', 1)], new Date())).toBeNull();
    });
  });
});
