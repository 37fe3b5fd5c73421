import { createTestDatabase, type TestDatabase } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../data-source';
import {
  ensureHourlyPartitions,
  HOURLY_HISTORY,
  hourOf,
  partitionName,
  reapHourlyHistory,
} from './time-partitions';
import { SORT_AFTER_MS, sortClosedHours } from './hour-sort';

const HOUR = 3_600_000;

describe('hourly history partitions against real PostgreSQL (ADR-0021)', () => {
  let database: TestDatabase;
  let db: DataSource;
  const node = randomUUID();
  /** An hour some days ahead: no partition was made for it, nor for the hours around it. */
  const H = hourOf(new Date(Date.now() + 3 * 86_400_000)).getTime();

  const tick = (at: number) =>
    db.query(`INSERT INTO queue_tick (ticked_at, cluster_id, node_id) VALUES ($1, $2, $2)`, [
      new Date(at),
      node,
    ]);
  /** Which table holds each tick of this node, oldest first. */
  const placed = async () =>
    (
      await db.query(
        `SELECT tableoid::regclass::text AS part, ticked_at FROM queue_tick WHERE node_id = $1 ORDER BY ticked_at`,
        [node],
      )
    ).map((r: { part: string; ticked_at: Date }) => `${r.ticked_at.toISOString().slice(11, 16)} ${r.part}`);
  const name = (hour: number) =>
    `queue_tick_p${new Date(hour).toISOString().slice(0, 13).replace(/\D/g, '')}`;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    db = await createDataSource({ url: database.url, poolSize: 4 }).initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it("moves what was written before its hour's partition was made into it, and makes each hour once", async () => {
    await tick(H + 5 * 60_000);
    await tick(H + HOUR + 5 * 60_000);
    expect(await placed()).toEqual([
      expect.stringMatching(/ queue_tick_default$/),
      expect.stringMatching(/ queue_tick_default$/),
    ]);
    // Three replicas at once, over the same two hours: the advisory lock lets one make them.
    const replicas = await Promise.all(
      [1, 2, 3].map(() => createDataSource({ url: database.url, poolSize: 1 }).initialize()),
    );
    try {
      const made = await Promise.all(
        replicas.map((replica) =>
          ensureHourlyPartitions(replica, HOURLY_HISTORY.queue_tick, new Date(H), new Date(H + 2 * HOUR)),
        ),
      );
      expect(made.sort()).toEqual([0, 0, 2]);
    } finally {
      await Promise.all(replicas.map((replica) => replica.destroy()));
    }
    const hh = (at: number) => new Date(at).toISOString().slice(11, 16);
    expect(await placed()).toEqual([
      `${hh(H + 5 * 60_000)} ${name(H)}`,
      `${hh(H + HOUR + 5 * 60_000)} ${name(H + HOUR)}`,
    ]);
    // A tick written now goes straight to its hour's partition.
    await tick(H + 50 * 60_000);
    expect((await placed())[1]).toBe(`${hh(H + 50 * 60_000)} ${name(H)}`);
  });

  it('drops the hours past the cut-off whole, keeps the hour it falls in whole, and deletes the older rows of the default partition', async () => {
    await ensureHourlyPartitions(
      db,
      HOURLY_HISTORY.queue_tick,
      new Date(H + 2 * HOUR),
      new Date(H + 3 * HOUR),
    );
    await tick(H + 2 * HOUR + 10 * 60_000);
    await tick(H + 2 * HOUR + 40 * 60_000);
    // An hour no partition was made for: the default partition's.
    await tick(H - 5 * HOUR);
    // Hours H and H+1 hold 3 ticks; H+2 one before the cut-off and one after. The hours the
    // migration made (now and six ahead) ended before the cut-off too, empty.
    const partitions = async () =>
      Number(
        (await db.query(`SELECT count(*) AS n FROM pg_inherits WHERE inhparent = 'queue_tick'::regclass`))[0]
          .n,
      );
    const before = await partitions();
    const cutOff = new Date(H + 2 * HOUR + 30 * 60_000);
    const reaped = await reapHourlyHistory(db, HOURLY_HISTORY.queue_tick, cutOff, 1);
    // Left: the hour the cut-off falls in, whole until it has all passed, and the default
    // partition, whose older row is deleted.
    expect(reaped).toEqual({ rows: 1, partitions: before - 2 });
    expect(await partitions()).toBe(2);
    expect(await placed()).toEqual(
      [10, 40].map(
        (minute) =>
          `${new Date(H + 2 * HOUR + minute * 60_000).toISOString().slice(11, 16)} ${name(H + 2 * HOUR)}`,
      ),
    );
    const parts = await db.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'queue_tick'::regclass AND c.relname = ANY ($1)`,
      [[name(H), name(H + HOUR), name(H + 2 * HOUR)]],
    );
    expect(parts).toEqual([{ relname: name(H + 2 * HOUR) }]);
  });

  describe('an hour that ended, rewritten in series order (ADR-0023)', () => {
    const cluster = randomUUID();
    /** Some days further on than the hours above: hours of their own. */
    const S = H + 2 * 86_400_000;
    const sample = (sql: Pick<DataSource, 'query'>, queue: string, at: number) =>
      sql.query(
        `INSERT INTO metric_sample (sampled_at, cluster_id, node_id, queue, message_count, messages_added,
                                    messages_acknowledged, consumer_count)
         VALUES ($1, $2, $2, $3, 1, 1, 0, 1)`,
        [new Date(at), cluster, queue],
      );
    /** An hour's rows in the order they lie in its table: queue and minute. */
    const stored = async (hour: number) =>
      (
        await db.query(
          `SELECT queue, sampled_at FROM ${partitionName('metric_sample', new Date(hour))} ORDER BY ctid`,
        )
      ).map((r: { queue: string; sampled_at: Date }) => `${r.queue}${r.sampled_at.getUTCMinutes()}`);
    const sortAt = (sql: Pick<DataSource, 'transaction' | 'query'>, now: number) =>
      sortClosedHours(sql, HOURLY_HISTORY.metric_sample, new Date(now), new Date(S - HOUR));
    const indexes = async (table: string) =>
      (await db.query(`SELECT count(*)::int AS n FROM pg_index WHERE indrelid = $1::regclass`, [table]))[0]
        .n as number;

    beforeAll(async () => {
      await ensureHourlyPartitions(db, HOURLY_HISTORY.metric_sample, new Date(S), new Date(S + 2 * HOUR));
      // Three queues sampled at each of three ticks, as a scraper writes them: tick by tick.
      for (const minute of [10, 20, 30])
        for (const queue of ['c', 'a', 'b']) await sample(db, queue, S + minute * 60_000);
      await sample(db, 'b', S + HOUR + 10 * 60_000);
      await sample(db, 'a', S + HOUR + 20 * 60_000);
    });

    it('keeps every row, in series order, with the indexes of the table, once the hour has ended', async () => {
      const written = ['c10', 'a10', 'b10', 'c20', 'a20', 'b20', 'c30', 'a30', 'b30'];
      expect(await stored(S)).toEqual(written);
      // Ended, but not SORT_AFTER_MS ago: a tick may still be writing into it.
      expect(await sortAt(db, S + HOUR + SORT_AFTER_MS - 1)).toBe(0);
      expect(await sortAt(db, S + HOUR + SORT_AFTER_MS)).toBe(1);
      expect(await stored(S)).toEqual(['a10', 'a20', 'a30', 'b10', 'b20', 'b30', 'c10', 'c20', 'c30']);
      expect(await stored(S + HOUR)).toEqual(['b10', 'a20']);
      const part = partitionName('metric_sample', new Date(S));
      expect(await indexes(part)).toBe(await indexes('metric_sample'));
      // Still the table's partition: a read through the table finds its rows, by its index.
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM metric_sample WHERE cluster_id = $1 AND queue = 'a' AND sampled_at < $2`,
        [cluster, new Date(S + HOUR)],
      );
      expect(n).toBe(3);
      expect(await sortAt(db, S + 3 * HOUR)).toBe(1);
      expect(await stored(S + HOUR)).toEqual(['a20', 'b10']);
      expect(await sortAt(db, S + 3 * HOUR)).toBe(0);
    });

    it('waits for a late writer into the hour, and keeps its row', async () => {
      const T = S + 3 * HOUR;
      await ensureHourlyPartitions(db, HOURLY_HISTORY.metric_sample, new Date(T), new Date(T + HOUR));
      await sample(db, 'a', T + 5 * 60_000);
      const writer = db.createQueryRunner();
      await writer.connect();
      try {
        await writer.startTransaction();
        await sample(writer.manager, 'z', T + 59 * 60_000);
        const sorting = sortAt(db, T + HOUR + SORT_AFTER_MS);
        // Committed while the sort waits: a copy taken without waiting would leave this row behind.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await writer.commitTransaction();
        expect(await sorting).toBe(1);
      } finally {
        await writer.release();
      }
      expect(await stored(T)).toEqual(['a5', 'z59']);
    });

    it('sorts an hour once when replicas run at once', async () => {
      const T = S + 5 * HOUR;
      await ensureHourlyPartitions(db, HOURLY_HISTORY.metric_sample, new Date(T), new Date(T + HOUR));
      for (const queue of ['b', 'a']) await sample(db, queue, T + 5 * 60_000);
      const replicas = await Promise.all(
        [1, 2, 3].map(() => createDataSource({ url: database.url, poolSize: 1 }).initialize()),
      );
      try {
        const sorted = await Promise.all(
          replicas.map((replica) => sortAt(replica, T + HOUR + SORT_AFTER_MS)),
        );
        expect(sorted.sort()).toEqual([0, 0, 1]);
      } finally {
        await Promise.all(replicas.map((replica) => replica.destroy()));
      }
      expect(await stored(T)).toEqual(['a5', 'b5']);
    });
  });
});
