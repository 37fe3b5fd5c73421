/**
 * Event ids, random or time-ordered (issue 5):  npm run bench -- event-ids   (BENCH_STORED_ROWS=1000000)
 * What PostgreSQL pays to insert broker events into a `broker_event` table that already holds many
 * (a million by default: 72 hours of retention at 4 events/s), when event ids are random (UUIDv4,
 * the baseline) and when they are time-ordered (UUIDv7, as the notifier makes them). Each kind gets its own migrated database,
 * filled with the same number of rows; then batches of 100,000 rows go into each in turn, after a
 * checkpoint, timed, with the WAL each one wrote.
 */
import { createTestDatabase } from '@artemis-studio/testing';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { v7 as timeOrderedUuid } from 'uuid';
import { runBench } from './support/run-bench';

const STORED_ROWS = Number(process.env.BENCH_STORED_ROWS ?? 1_000_000);
const BATCH = 100_000;
const ROUNDS = 3;
const clusterId = randomUUID();

/** The ingest benchmark's event, built in PostgreSQL so that only the ids travel. */
const INSERT = `
  INSERT INTO broker_event (broker_ts, received_at, cluster_id, event_id, type, node, address, queue,
                            consumer, session, connection, remote_address, "user", props)
  SELECT now(), now(), $2::uuid, id, CASE WHEN n % 2 = 1 THEN 'CONSUMER_CREATED' ELSE 'CONSUMER_CLOSED' END,
         'node-a', 'orders.' || n % 50, 'orders.' || n % 50, n::text, md5(n::text), 'a1b2c3d4',
         '10.0.0.7:51234', 'app',
         jsonb_build_object('_AMQ_NotifType', 'CONSUMER_CREATED', '_AMQ_NotifTimestamp', 1764400000000,
                            '_AMQ_Address', 'orders.' || n % 50, '_AMQ_RoutingName', 'orders.' || n % 50,
                            '_AMQ_Distance', 0, '_AMQ_ConsumerCount', 1, '_AMQ_User', 'app',
                            '_AMQ_RemoteAddress', '10.0.0.7:51234', '_AMQ_SessionName', 's',
                            '_AMQ_ConsumerName', n)
    FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`;

interface Kind {
  name: string;
  newId: () => string;
  client: Client;
  drop: () => Promise<void>;
  seconds: number[];
  walBytes: number[];
}

const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function insertBatch(kind: Kind, rows: number): Promise<void> {
  const ids = Array.from({ length: rows }, () => kind.newId());
  await kind.client.query(INSERT, [ids, clusterId]);
}

async function main(): Promise<void> {
  const kinds: Kind[] = [];
  for (const [name, newId] of [
    ['random (UUIDv4), baseline', randomUUID],
    ['time-ordered (UUIDv7)', timeOrderedUuid],
  ] as const) {
    const db = await createTestDatabase({ migrated: true });
    const client = new Client({ connectionString: db.url });
    await client.connect();
    kinds.push({ name, newId, client, drop: db.drop, seconds: [], walBytes: [] });
  }

  for (const kind of kinds) {
    progress(`storing ${STORED_ROWS} rows with ${kind.name} ids`);
    for (let stored = 0; stored < STORED_ROWS; stored += BATCH)
      await insertBatch(kind, Math.min(BATCH, STORED_ROWS - stored));
    await kind.client.query('VACUUM (ANALYZE) broker_event');
  }

  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
      progress(`round ${round + 1}: ${BATCH} rows with ${kind.name} ids`);
      await kind.client.query('CHECKPOINT');
      const [{ lsn: before }] = (await kind.client.query('SELECT pg_current_wal_lsn() AS lsn')).rows;
      const started = performance.now();
      await insertBatch(kind, BATCH);
      kind.seconds.push((performance.now() - started) / 1000);
      const [{ bytes }] = (
        await kind.client.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS bytes', [before])
      ).rows;
      kind.walBytes.push(Number(bytes));
    }
  }

  console.log(
    `\nEvent ids, ${BATCH} rows inserted into ${STORED_ROWS}+ stored rows, median of ${ROUNDS}, ${new Date().toISOString()}\n`,
  );
  console.table(
    kinds.map((k) => ({
      'event ids': k.name,
      'rows/s': (BATCH / median(k.seconds)).toFixed(0),
      'runs (s)': k.seconds.map((s) => s.toFixed(2)).join(', '),
      'WAL per row (bytes)': (median(k.walBytes) / BATCH).toFixed(0),
    })),
  );
  const [random, ordered] = kinds;
  console.log(
    `time-ordered / random: ${(median(random.seconds) / median(ordered.seconds)).toFixed(2)}x the rows/s, ` +
      `${(median(ordered.walBytes) / median(random.walBytes)).toFixed(2)} of the WAL`,
  );

  for (const kind of kinds) {
    await kind.client.end();
    await kind.drop();
  }
}

runBench(__filename, main);
