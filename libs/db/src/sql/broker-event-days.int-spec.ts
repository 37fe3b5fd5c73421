import { createTestDatabase, type TestDatabase } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../data-source';
import { BROKER_EVENT_DAYS, ensurePartitions, eventIdAt, reapPartitions } from './time-partitions';

const DAY = 86_400_000;

describe('broker_event partitioned by the day of its event id, against real PostgreSQL (ADR-0025)', () => {
  let database: TestDatabase;
  let db: DataSource;
  const cluster = randomUUID();
  /** A day some days ahead: no partition was made for it, nor for the days around it. */
  const D = Math.floor((Date.now() + 10 * DAY) / DAY) * DAY;
  let serial = 0;
  /** An event id of the broker's time `at`, unique in this suite. */
  const idAt = (at: number) => eventIdAt(new Date(at)).replace(/0{12}$/, String(++serial).padStart(12, '0'));

  /** Inserts as the event writer does; says whether the event was stored (false: its id already was). */
  const insert = async (eventId: string, receivedAt: number) =>
    (
      await db.query(
        `INSERT INTO broker_event (received_at, cluster_id, event_id, type, node, props)
         VALUES ($1, $2, $3, 'CONSUMER_CREATED', 'a', '{}') ON CONFLICT (event_id) DO NOTHING RETURNING seq`,
        [new Date(receivedAt), cluster, eventId],
      )
    ).length === 1;
  /** Which table holds each of this suite's events, in seq order. */
  const placed = async () =>
    (
      await db.query(
        `SELECT tableoid::regclass::text AS part FROM broker_event WHERE cluster_id = $1 ORDER BY seq`,
        [cluster],
      )
    ).map((r: { part: string }) => r.part);
  const name = (day: number) =>
    `broker_event_p${new Date(day).toISOString().slice(0, 10).replace(/\D/g, '')}`;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    db = await createDataSource({ url: database.url, poolSize: 4 }).initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it("keeps an event once whichever partition holds it, and moves what came before its day's partition into it", async () => {
    const early = idAt(D + 3_600_000);
    expect(await insert(early, Date.now())).toBe(true);
    expect(await insert(early, Date.now())).toBe(false);
    expect(await placed()).toEqual(['broker_event_default']);
    // Three replicas at once, over the same two days: the advisory lock lets one make them.
    const replicas = await Promise.all(
      [1, 2, 3].map(() => createDataSource({ url: database.url, poolSize: 1 }).initialize()),
    );
    try {
      const made = await Promise.all(
        replicas.map((replica) =>
          ensurePartitions(replica, BROKER_EVENT_DAYS, new Date(D), new Date(D + 2 * DAY)),
        ),
      );
      expect(made.sort()).toEqual([0, 0, 2]);
    } finally {
      await Promise.all(replicas.map((replica) => replica.destroy()));
    }
    expect(await placed()).toEqual([name(D)]);
    // The same notification again (a redelivery, a handover's overlap) is still refused, and a new
    // one of the next day goes straight to its day.
    expect(await insert(early, Date.now())).toBe(false);
    expect(await insert(idAt(D + DAY + 60_000), Date.now())).toBe(true);
    expect(await placed()).toEqual([name(D), name(D + DAY)]);
  });

  it('drops the days past the cut-off whole, keeps the day it falls in and the others intact, and deletes the older events of the default partition', async () => {
    await ensurePartitions(db, BROKER_EVENT_DAYS, new Date(D + 2 * DAY), new Date(D + 4 * DAY));
    await insert(idAt(D + 2 * DAY + 60_000), Date.now());
    await insert(idAt(D + 3 * DAY + 60_000), Date.now());
    // Ids of no day made (a random one): the default partition's, aged by when they were received.
    await insert(randomUUID(), D + DAY);
    await insert(randomUUID(), D + 3 * DAY);
    const cutOff = new Date(D + 2 * DAY + 12 * 3_600_000);
    const before = Number(
      (await db.query(`SELECT count(*) AS n FROM pg_inherits WHERE inhparent = 'broker_event'::regclass`))[0]
        .n,
    );
    const reaped = await reapPartitions(db, BROKER_EVENT_DAYS, cutOff, 1);
    // Gone: days D and D+1 with the migration's days (all ended before the cut-off), and the
    // default partition's event received before it.
    expect(reaped.rows).toBe(1);
    const after = Number(
      (await db.query(`SELECT count(*) AS n FROM pg_inherits WHERE inhparent = 'broker_event'::regclass`))[0]
        .n,
    );
    expect(after).toBe(before - reaped.partitions);
    expect(await placed()).toEqual([name(D + 2 * DAY), name(D + 3 * DAY), 'broker_event_default']);
    const days = await db.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'broker_event'::regclass ORDER BY 1`,
    );
    expect(days.map((d: { relname: string }) => d.relname)).toEqual([
      'broker_event_default',
      name(D + 2 * DAY),
      name(D + 3 * DAY),
    ]);
    // Replay still reads across the days left, in seq order.
    const replay = await db.query(
      `SELECT tableoid::regclass::text AS part FROM broker_event WHERE cluster_id = $1 AND seq > 0 ORDER BY seq LIMIT 10`,
      [cluster],
    );
    expect(replay.map((r: { part: string }) => r.part)).toEqual(await placed());
  });
});
