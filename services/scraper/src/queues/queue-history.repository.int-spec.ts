import { SAMPLE_HEARTBEAT_MS } from '@artemis-studio/db';
import { insertCluster, waitFor } from '@artemis-studio/testing';
import type { QueueObservation } from './queue-observation';
import { observedQueue } from './queue-observation.fixture';
import { StoredQueues } from './stored-queues';
import { SnapshotStack, queue, oneNodeCluster } from './snapshot-stack.fixture';

describe('QueueSnapshotRepository: the history it writes, against real PostgreSQL', () => {
  const stack = new SnapshotStack();

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

  it("writes each tick with its node's queue totals and rolls them up per minute and per hour (ADR-0020)", async () => {
    const own = await insertCluster(stack.db, oneNodeCluster);
    const node = own.nodeIds[0];
    // In 1999: the rollups' reaper deletes across clusters, and only these are that old.
    const at = (seconds: number) => new Date(Date.UTC(1999, 10, 30, 16, 0, seconds));
    const waiting = new Date(Date.UTC(1999, 10, 30, 15, 59, 0));
    const observed = (name: string, depth: number, added: number, firstMessageAt: Date | null = null) =>
      observedQueue(name, { messageCount: depth, messagesAdded: added, consumerCount: 1, firstMessageAt });
    await stack.sut.sync(own.id, node, [observed('a', 5, 100, waiting), observed('b', 1, 10)], at(0));
    // b's counter went back (the broker restarted): its 4 count from zero.
    await stack.sut.sync(own.id, node, [observed('a', 9, 130, waiting), observed('b', 0, 4)], at(30));
    // Unchanged: no sample written, the totals all the same.
    await stack.sut.sync(own.id, node, [observed('a', 9, 130, waiting), observed('b', 0, 4)], at(45));
    await stack.sut.sync(own.id, node, [observed('a', 2, 131, waiting)], at(75));
    const ticks = await stack.db.query(
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
    const rollups = await stack.db.query(
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
    expect(await stack.sut.reapRollups(60, at(60))).toBe(1);
    expect(
      await stack.db.query(`SELECT resolution_s FROM node_rollup WHERE node_id = $1 ORDER BY resolution_s`, [
        node,
      ]),
    ).toEqual([{ resolution_s: 60 }, { resolution_s: 3600 }]);
    // Out of the way of the samples' reaper below, which counts what it deletes before 2001.
    for (const table of ['metric_sample', 'queue_tick', 'node_rollup'])
      await stack.db.query(`DELETE FROM ${table} WHERE cluster_id = $1`, [own.id]);
  });

  it('writes the same history when the queues whose figures are stored are sent by name only', async () => {
    const [full, other] = [
      await insertCluster(stack.db, oneNodeCluster),
      await insertCluster(stack.db, oneNodeCluster),
    ];
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
      const sent = await stack.sut.sync(full.id, full.nodeIds[0], queues, at, unread);
      const tick = stored.split(queues, at);
      byName += tick.stored.length;
      const split = await stack.sut.sync(other.id, other.nodeIds[0], tick.changed, at, unread, tick.stored);
      expect(split).toEqual(sent);
      stored.wrote(queues);
    }
    expect(byName).toBe(10);
    const history = async (cluster: string) => ({
      snapshots: await stack.db.query(
        `SELECT name, observed_at, changed_at, sampled_at, message_count, messages_added, added_per_second
           FROM queue_snapshot WHERE cluster_id = $1 ORDER BY name`,
        [cluster],
      ),
      samples: await stack.db.query(
        `SELECT sampled_at, queue, message_count, messages_added, ended FROM metric_sample
          WHERE cluster_id = $1 ORDER BY sampled_at, queue`,
        [cluster],
      ),
      ticks: await stack.db.query(
        `SELECT ticked_at, depth, consumers, added, acknowledged FROM queue_tick WHERE cluster_id = $1 ORDER BY ticked_at`,
        [cluster],
      ),
    });
    const written = await history(full.id);
    expect(written.samples.length).toBeGreaterThan(6);
    expect(await history(other.id)).toEqual(written);
  });

  it('says how many queues sent by name had no snapshot, and leaves them out', async () => {
    const own = await insertCluster(stack.db, oneNodeCluster);
    const node = own.nodeIds[0];
    await stack.sut.sync(own.id, node, [queue('kept', 2)], new Date());
    expect(await stack.sut.sync(own.id, node, [], new Date(), [], ['kept', 'never-written'])).toEqual({
      changed: 0,
      removed: 0,
      sampled: 0,
      storedMissing: 1,
    });
    const names = (await stack.db.query(`SELECT name FROM queue_snapshot WHERE node_id = $1`, [node])) as {
      name: string;
    }[];
    expect(names).toEqual([{ name: 'kept' }]);
  });

  it('reaps only samples older than the cut-off, in bounded batches', async () => {
    // Its own cluster and a cut-off in the year 2000: the reaper deletes across clusters, and
    // the other tests' samples carry fixed dates that a cut-off relative to the clock catches
    // once the calendar has passed them.
    const own = await insertCluster(stack.db, oneNodeCluster);
    const node = own.nodeIds[0];
    await stack.sut.sync(own.id, node, [queue('x'), queue('y'), queue('z')], new Date(Date.UTC(2000, 0, 1)));
    await stack.sut.sync(own.id, node, [queue('x')], new Date());
    const samples = async () =>
      (
        await stack.db.query(`SELECT count(*)::int AS n FROM metric_sample WHERE cluster_id = $1`, [own.id])
      )[0].n;
    // x, y, z; x again (its heartbeat long due), y and z ended (removed); a tick each.
    expect(await samples()).toBe(6);
    expect(await stack.sut.reapSamples(new Date(Date.UTC(2001, 0, 1)), 2)).toEqual({
      rows: 3 + 1,
      partitions: 0,
    });
    expect(await samples()).toBe(3);
  });

  describe('beside a deletion of the cluster', () => {
    /** Backends of this database waiting for a lock while running a statement that mentions `text`. */
    const waitingOn = async (text: string) =>
      (
        await stack.db.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
          [`%${text}%`],
        )
      )[0].n > 0;

    it('lets the deletion wait for a tick already writing, rather than deadlock with it', async () => {
      const doomed = await insertCluster(stack.db, oneNodeCluster);
      const node = doomed.nodeIds[0];
      await stack.sut.sync(doomed.id, node, [queue('a', 1), queue('b', 1)], new Date());
      // A third party holds the node row, so the tick stops after locking its snapshot rows (at its
      // node key check) and the deletion stops in its cascade: the order that used to deadlock.
      const gate = stack.db.createQueryRunner();
      await gate.startTransaction();
      await gate.query(`SELECT 1 FROM cluster_node WHERE id = $1 FOR UPDATE`, [node]);
      try {
        const tick = stack.sut.sync(
          doomed.id,
          node,
          [queue('a', 2), queue('b', 2), queue('c', 1)],
          new Date(),
        );
        // Its statement's beginning: pg_stat_activity keeps the first 1,024 bytes of a query.
        await waitFor('the tick to wait', () => waitingOn('WITH stored AS'));
        const deletion = stack.db.query(`DELETE FROM cluster WHERE id = $1`, [doomed.id]);
        await waitFor('the deletion to wait', () => waitingOn('DELETE FROM cluster'));
        await gate.rollbackTransaction();
        expect(await tick).toEqual({ changed: 3, removed: 0, sampled: 3, storedMissing: 0 });
        await deletion;
      } finally {
        if (gate.isTransactionActive) await gate.rollbackTransaction();
        await gate.release();
      }
      expect(await stack.db.query(`SELECT 1 FROM queue_snapshot WHERE node_id = $1`, [node])).toEqual([]);
    });

    it('writes nothing for a cluster deleted before its tick, and says so', async () => {
      const doomed = await insertCluster(stack.db, oneNodeCluster);
      await stack.db.query(`DELETE FROM cluster WHERE id = $1`, [doomed.id]);
      expect(await stack.sut.sync(doomed.id, doomed.nodeIds[0], [queue('a', 1)], new Date())).toBeNull();
    });
  });
});
