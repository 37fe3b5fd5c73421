/**
 * What retention costs `broker_event` (issue 32, ADR-0025):   npm run bench -- event-retention
 * (BENCH_EVENTS=1000000). A day of events received five days ago, removed two ways in the same
 * run: deleted in batches of 5,000 from an unpartitioned copy with the same indexes (as every
 * build before ADR-0025 did), and its day's partition dropped. Then the migration to the days:
 * the table unpartitioned again, holding the same events over the last three days, and
 * partitioned, timed. PostgreSQL is the machine's, in a fresh database; WAL is read from
 * pg_current_wal_lsn after a checkpoint.
 */
import {
  BROKER_EVENT_DAYS,
  createDataSource,
  ensurePartitions,
  reapOlderThan,
  reapPartitions,
  type Sql,
} from '@artemis-studio/db';
import { createTestDatabase } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { BrokerEventDays1765500000000 } from '../libs/db/src/migrations/1765500000000-broker-event-days';
import { runBench } from './support/run-bench';
import { insertEventsSql } from './support/stored-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const DAY_MS = 86_400_000;
const BATCH = 5000;
/** The events' 20 clusters, in turn. */
const CLUSTER_OF_EVENT = '($4::uuid[])[1 + i % 20]';
const clusters = Array.from({ length: 20 }, () => randomUUID());

/** Runs `work` after a checkpoint; its time and the WAL it wrote. */
async function measured(db: Sql, work: () => Promise<unknown>): Promise<{ s: number; walMb: number }> {
  await db.query('CHECKPOINT');
  const [{ lsn }] = (await db.query('SELECT pg_current_wal_lsn() AS lsn')) as { lsn: string }[];
  const started = performance.now();
  await work();
  const s = (performance.now() - started) / 1000;
  const [{ mb }] = (await db.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) / 1e6 AS mb', [
    lsn,
  ])) as {
    mb: string;
  }[];
  return { s, walMb: Number(mb) };
}

async function main(): Promise<void> {
  const database = await createTestDatabase({ migrated: true });
  const db = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
  try {
    const day = Math.floor(Date.now() / DAY_MS) * DAY_MS - 5 * DAY_MS;
    const cutOff = new Date(day + DAY_MS);
    await ensurePartitions(db, BROKER_EVENT_DAYS, new Date(day), cutOff);
    await db.query(insertEventsSql('broker_event', CLUSTER_OF_EVENT), [EVENTS, day, 86_399, clusters]);
    // The table as it was before ADR-0025: one heap with the same indexes.
    await db.query(`CREATE TABLE broker_event_unpartitioned (LIKE broker_event INCLUDING ALL)`);
    await db.query(
      `INSERT INTO broker_event_unpartitioned OVERRIDING SYSTEM VALUE SELECT * FROM broker_event`,
    );
    const deleted = await measured(db, () =>
      reapOlderThan(
        db,
        { table: 'broker_event_unpartitioned', age: 'received_at', orderBy: 'seq' },
        cutOff,
        BATCH,
      ),
    );
    const dropped = await measured(db, () => reapPartitions(db, BROKER_EVENT_DAYS, cutOff, BATCH));
    await db.query(`DROP TABLE broker_event_unpartitioned`);

    const runner = db.createQueryRunner();
    const migration = new BrokerEventDays1765500000000();
    await migration.down(runner);
    await db.query(insertEventsSql('broker_event', CLUSTER_OF_EVENT), [
      EVENTS,
      Date.now() - 3 * DAY_MS,
      3 * 86_400,
      clusters,
    ]);
    const migrated = await measured(db, () => migration.up(runner));
    await runner.release();

    console.log(
      `\nbroker_event retention, ${EVENTS.toLocaleString('en')} events, ${new Date().toISOString()}\n`,
    );
    console.log('what | seconds | WAL MB');
    console.log(
      `a day's events deleted in batches of ${BATCH} (before ADR-0025) | ${deleted.s.toFixed(2)} | ${deleted.walMb.toFixed(1)}`,
    );
    console.log(`a day's partition dropped | ${dropped.s.toFixed(2)} | ${dropped.walMb.toFixed(2)}`);
    console.log(
      `the migration, ${EVENTS.toLocaleString('en')} events over three days | ${migrated.s.toFixed(2)} | ${migrated.walMb.toFixed(1)}`,
    );
    console.log(
      `dropped against deleted: ${(deleted.walMb / Math.max(dropped.walMb, 0.001)).toFixed(0)}x less WAL, ${(deleted.s / dropped.s).toFixed(1)}x faster`,
    );
  } finally {
    await db.destroy();
    await database.drop();
  }
}

runBench(__filename, main);
