import { createTestDatabase, type TestDatabase } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { ensureHourlyPartitions, HOURLY_HISTORY, hourOf, reapHourlyHistory } from './hourly-history';

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

  it('drops the hours past the cut-off whole, deletes the older rows of the hour it falls in, and leaves the rest', async () => {
    await ensureHourlyPartitions(
      db,
      HOURLY_HISTORY.queue_tick,
      new Date(H + 2 * HOUR),
      new Date(H + 3 * HOUR),
    );
    await tick(H + 2 * HOUR + 10 * 60_000);
    await tick(H + 2 * HOUR + 40 * 60_000);
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
    // Left: the hour the cut-off falls in, and the default partition.
    expect(reaped).toEqual({ rows: 1, partitions: before - 2 });
    expect(await partitions()).toBe(2);
    expect(await placed()).toEqual([
      `${new Date(H + 2 * HOUR + 40 * 60_000).toISOString().slice(11, 16)} ${name(H + 2 * HOUR)}`,
    ]);
    const parts = await db.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'queue_tick'::regclass AND c.relname = ANY ($1)`,
      [[name(H), name(H + HOUR), name(H + 2 * HOUR)]],
    );
    expect(parts).toEqual([{ relname: name(H + 2 * HOUR) }]);
  });
});
