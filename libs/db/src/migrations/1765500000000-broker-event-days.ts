import type { MigrationInterface, QueryRunner } from 'typeorm';

const DAY_MS = 86_400_000;
/** The days given a partition here: back to the oldest event received (at most a year), and two ahead. */
const MAX_DAYS_BACK = 366;
const DAYS_AHEAD = 2;

const COLUMNS = `
  seq            bigint GENERATED ALWAYS AS IDENTITY,
  broker_ts      timestamptz,
  received_at    timestamptz NOT NULL,
  cluster_id     uuid NOT NULL,
  event_id       uuid NOT NULL,
  type           text NOT NULL,
  node           text NOT NULL,
  address        text,
  queue          text,
  consumer       text,
  session        text,
  connection     text,
  remote_address text,
  "user"         text,
  props          jsonb NOT NULL`;

/** The lowest event id of an instant (as eventIdAt in time-partitions.ts, frozen here with the migration). */
const eventIdAt = (ms: number): string => {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
};

async function createIndexes(db: QueryRunner): Promise<void> {
  // A redelivered event (crash between commit and ack) must not become a second row.
  await db.query(`CREATE UNIQUE INDEX broker_event_event_id ON broker_event (event_id)`);
  // Replay (seq > cursor) and unfiltered history pages.
  await db.query(`CREATE INDEX broker_event_cluster_seq ON broker_event (cluster_id, seq)`);
  // Filtered history pages, newest first, by keyset on seq.
  await db.query(`CREATE INDEX broker_event_cluster_type_seq ON broker_event (cluster_id, type, seq)`);
  await db.query(
    `CREATE INDEX broker_event_cluster_address_seq ON broker_event (cluster_id, address, seq) WHERE address IS NOT NULL`,
  );
  await db.query(
    `CREATE INDEX broker_event_cluster_queue_seq ON broker_event (cluster_id, queue, seq) WHERE queue IS NOT NULL`,
  );
  await db.query(`CREATE INDEX broker_event_age ON broker_event USING brin (received_at)`);
}

/** Copies the old table's rows with their seqs, and carries its identity on from the last. */
async function copyRows(db: QueryRunner, from: string): Promise<void> {
  await db.query(`INSERT INTO broker_event OVERRIDING SYSTEM VALUE SELECT * FROM ${from}`);
  await db.query(
    `SELECT setval(pg_get_serial_sequence('broker_event', 'seq'), max(seq)) FROM broker_event HAVING max(seq) IS NOT NULL`,
  );
}

const INDEXES = [
  'broker_event_event_id',
  'broker_event_cluster_seq',
  'broker_event_cluster_type_seq',
  'broker_event_cluster_address_seq',
  'broker_event_cluster_queue_seq',
  'broker_event_age',
];

/**
 * `broker_event` partitioned by the day of its event id (issue 32, ADR-0025): retention drops a
 * day's partition instead of deleting its rows, and the event store makes the days ahead. A
 * default partition holds what no day's partition was there for.
 */
export class BrokerEventDays1765500000000 implements MigrationInterface {
  name = 'BrokerEventDays1765500000000';

  async up(db: QueryRunner): Promise<void> {
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const [{ first }] = (await db.query(`SELECT min(received_at) AS first FROM broker_event`)) as {
      first: Date | null;
    }[];
    await db.query(`DROP INDEX ${INDEXES.join(', ')}`);
    await db.query(`ALTER TABLE broker_event RENAME TO broker_event_unpartitioned`);
    // The brief's primary key on seq, with the partition key that a partitioned table's must hold.
    await db.query(
      `CREATE TABLE broker_event (${COLUMNS}, PRIMARY KEY (seq, event_id)) PARTITION BY RANGE (event_id)`,
    );
    await db.query(
      `CREATE TABLE broker_event_default PARTITION OF broker_event DEFAULT WITH (fillfactor = 100)`,
    );
    const start = Math.max(
      first ? Math.floor(first.getTime() / DAY_MS) * DAY_MS : today,
      today - MAX_DAYS_BACK * DAY_MS,
    );
    for (let day = start; day < today + DAYS_AHEAD * DAY_MS; day += DAY_MS) {
      const name = `broker_event_p${new Date(day).toISOString().slice(0, 10).replace(/\D/g, '')}`;
      await db.query(
        `CREATE TABLE ${name} PARTITION OF broker_event
           FOR VALUES FROM ('${eventIdAt(day)}') TO ('${eventIdAt(day + DAY_MS)}') WITH (fillfactor = 100)`,
      );
    }
    await copyRows(db, 'broker_event_unpartitioned');
    await db.query(`DROP TABLE broker_event_unpartitioned`);
    await createIndexes(db);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ${INDEXES.join(', ')}`);
    await db.query(`ALTER TABLE broker_event RENAME TO broker_event_partitioned`);
    await db.query(`CREATE TABLE broker_event (${COLUMNS}, PRIMARY KEY (seq)) WITH (fillfactor = 100)`);
    await copyRows(db, 'broker_event_partitioned');
    await db.query(`DROP TABLE broker_event_partitioned`);
    await createIndexes(db);
  }
}
