import { SAMPLE_HEARTBEAT_MS } from '@artemis-studio/db';
import { insertCluster } from '@artemis-studio/testing';
import type { QueueObservation } from './queue-observation';
import { SnapshotStack, queue, oneNodeCluster } from './snapshot-stack.fixture';

describe('QueueSnapshotRepository against real PostgreSQL', () => {
  const stack = new SnapshotStack();

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

  it('reports inserts, real changes and removals, and nothing for an identical tick', async () => {
    const node = stack.cluster.nodeIds[0];
    expect(await stack.sut.sync(stack.cluster.id, node, [queue('a'), queue('b')], new Date())).toEqual({
      changed: 2,
      removed: 0,
      sampled: 2,
      storedMissing: 0,
    });
    expect(await stack.sut.sync(stack.cluster.id, node, [queue('a'), queue('b')], new Date())).toEqual({
      changed: 0,
      removed: 0,
      sampled: 0,
      storedMissing: 0,
    });
    expect(await stack.sut.sync(stack.cluster.id, node, [queue('a', 3)], new Date())).toEqual({
      changed: 1,
      removed: 1,
      sampled: 1,
      storedMissing: 0,
    });
    expect(await stack.sut.sync(stack.cluster.id, node, [], new Date())).toEqual({
      changed: 0,
      removed: 1,
      sampled: 0,
      storedMissing: 0,
    });
  });

  it('keeps when the oldest message was sent, and counts a new head as a change, the same head as none', async () => {
    const node = stack.cluster.nodeIds[0];
    const head = new Date('2026-12-01T10:00:00.000Z');
    await stack.sut.sync(stack.cluster.id, node, [{ ...queue('h', 2), firstMessageAt: head }], new Date());
    expect(
      await stack.sut.sync(stack.cluster.id, node, [{ ...queue('h', 2), firstMessageAt: head }], new Date()),
    ).toEqual({
      changed: 0,
      removed: 0,
      sampled: 0,
      storedMissing: 0,
    });
    const next = new Date('2026-12-01T10:00:05.000Z');
    expect(
      await stack.sut.sync(stack.cluster.id, node, [{ ...queue('h', 2), firstMessageAt: next }], new Date()),
    ).toEqual({
      changed: 1,
      removed: 0,
      sampled: 1,
      storedMissing: 0,
    });
    const [row] = (await stack.db.query(
      `SELECT first_message_at FROM queue_snapshot WHERE node_id = $1 AND name = 'h'`,
      [node],
    )) as { first_message_at: Date }[];
    expect(row.first_message_at.toISOString()).toBe(next.toISOString());
    await stack.sut.sync(stack.cluster.id, node, [], new Date());
  });

  it('keeps an unread queue as it was: neither removed nor updated', async () => {
    const node = stack.cluster.nodeIds[0];
    const first = new Date(Date.UTC(2026, 10, 30, 13, 0, 0));
    await stack.sut.sync(stack.cluster.id, node, [queue('kept', 5), queue('gone', 1)], first);
    expect(
      await stack.sut.sync(stack.cluster.id, node, [], new Date(first.getTime() + 5000), ['kept']),
    ).toEqual({
      changed: 0,
      removed: 1,
      sampled: 0,
      storedMissing: 0,
    });
    const rows = await stack.db.query(
      `SELECT name, message_count, observed_at FROM queue_snapshot WHERE node_id = $1`,
      [node],
    );
    expect(rows).toEqual([{ name: 'kept', message_count: '5', observed_at: first }]);
    await stack.sut.sync(stack.cluster.id, node, [], new Date());
  });

  it("stores each counter's rate over the interval, unknown at first sight and after a counter reset", async () => {
    const node = stack.cluster.nodeIds[0];
    const rates = async () => {
      const [row] = await stack.db.query(
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
    await stack.sut.sync(stack.cluster.id, node, [counters(100, 50, 0, 0)], at(0));
    expect(await rates()).toEqual([null, null, null, null]);
    await stack.sut.sync(stack.cluster.id, node, [counters(150, 60, 4, 0)], at(5));
    expect(await rates()).toEqual([10, 2, 0.8, 0]);
    // The broker restarted: its counters start again from zero; the rate is unknown, not negative.
    await stack.sut.sync(stack.cluster.id, node, [counters(3, 1, 0, 0)], at(10));
    expect(await rates()).toEqual([null, null, null, 0]);
    await stack.sut.sync(stack.cluster.id, node, [], at(15));
  });

  it('samples a queue when it changed or its heartbeat is due, ends its series where it is not known, and ticks each read', async () => {
    const own = await insertCluster(stack.db, oneNodeCluster);
    const node = own.nodeIds[0];
    const t0 = Date.UTC(2026, 10, 30, 14, 0, 0);
    const at = (ms: number) => new Date(t0 + ms);
    const sampled = async (...args: [QueueObservation[], Date, string[]?]) =>
      (await stack.sut.sync(own.id, node, ...args))?.sampled;
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
    expect(await stack.sut.clearNode(node)).toBe(2);
    const rows = (await stack.db.query(
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
    const ended = (await stack.db.query(
      `SELECT queue FROM metric_sample WHERE cluster_id = $1 AND ended AND sampled_at > $2 ORDER BY queue`,
      [own.id, at(SAMPLE_HEARTBEAT_MS + 61_000)],
    )) as { queue: string }[];
    expect(ended.map((r) => r.queue)).toEqual(['p', 'q']);
    const ticks = (
      await stack.db.query(`SELECT count(*)::int AS n FROM queue_tick WHERE node_id = $1`, [node])
    )[0].n;
    expect(ticks).toBe(7);
  });

  it('rewrites an unchanged snapshot only to say its rates fell to 0, and rates a change over the last interval', async () => {
    const own = await insertCluster(stack.db, oneNodeCluster);
    const node = own.nodeIds[0];
    const at = (seconds: number) => new Date(Date.UTC(2026, 10, 30, 15, 0, seconds));
    const row = async () =>
      (
        (await stack.db.query(
          `SELECT observed_at, added_per_second AS rate FROM queue_snapshot WHERE node_id = $1 AND name = 'w'`,
          [node],
        )) as { observed_at: Date; rate: number | null }[]
      )[0];
    const tick = (added: number, seconds: number) =>
      stack.sut.sync(own.id, node, [{ ...queue('w'), messagesAdded: added }], at(seconds));
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
});
