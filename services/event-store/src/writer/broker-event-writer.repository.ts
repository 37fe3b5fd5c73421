import type { PreparedStatement } from '@artemis-studio/db';
import { Client } from 'pg';

/** An event the writer committed, the seq PostgreSQL gave it, and its cluster's seq before it. */
export interface StoredRow {
  eventId: string;
  seq: number;
  prevSeq: number;
}

/** One writer at a time, across every replica. */
const WRITER_LOCK = 'artemis-studio:event-writer';
const UNIQUE_VIOLATION = '23505';

/**
 * PostgreSQL reads the fields out of the events' JSON itself: building one typed array per column
 * in this process cost more CPU than the rest of the write (docs/benchmarks.md), and a COPY of the
 * same rows was no faster end to end for three more round trips per batch. Keys are matched by
 * name (unknown ones ignored, the last of a repeated one wins, as in JSON.parse), so each row
 * holds exactly the values that were validated.
 */
const INSERT = `
  INSERT INTO broker_event (broker_ts, received_at, cluster_id, event_id, type, node, address, queue,
                            consumer, session, connection, remote_address, "user", props)
  SELECT "brokerTs", "receivedAt", "clusterId", "eventId", type, node, address, queue,
         consumer, session, connection, "remoteAddress", "user", props
    FROM json_to_recordset($1::json) AS e("brokerTs" timestamptz, "receivedAt" timestamptz,
         "clusterId" uuid, "eventId" uuid, type text, node text, address text, queue text,
         consumer text, session text, connection text, "remoteAddress" text, "user" text, props jsonb)`;
/**
 * Each stored row with its cluster's previous seq: the one before it in the batch, or else the
 * cluster's newest stored row. The scalar subquery sees the table as it was before this statement
 * (one snapshot for the whole WITH), so it never finds the rows being inserted; COALESCE runs it
 * only for a cluster's first row in the batch. The rows come back as one JSON array in `seq` order:
 * as a result row each, parsing them took a twelfth of the event store's CPU at 1,000 events/s
 * (docs/benchmarks.md, broker-to-browser).
 */
const withPrevSeq = (insert: string) => `
  WITH stored AS (${insert} RETURNING seq, event_id, cluster_id),
       linked AS (
         SELECT seq, event_id,
                COALESCE(lag(seq) OVER (PARTITION BY cluster_id ORDER BY seq),
                         (SELECT max(b.seq) FROM broker_event b WHERE b.cluster_id = stored.cluster_id),
                         0) AS prev_seq
           FROM stored)
  SELECT json_agg(json_build_array(seq, event_id, prev_seq) ORDER BY seq) AS rows FROM linked`;
/**
 * Named, so the writer's connection parses and plans each once rather than at every batch (about
 * 40 a second at 1,000 events/s); PostgreSQL plans again by itself after a partition is added or
 * dropped.
 */
const INSERT_SKIPPING_STORED = {
  name: 'store-events-skipping-stored',
  text: withPrevSeq(`${INSERT} ON CONFLICT (event_id) DO NOTHING`),
} satisfies PreparedStatement;
const INSERT_ALL = { name: 'store-events', text: withPrevSeq(INSERT) } satisfies PreparedStatement;

/** `[seq, eventId, prevSeq]` per stored row; null when the statement stored none. */
type InsertedRows = { rows: [number, string, number][] | null };

function storedRows({ rows: [{ rows }] }: { rows: InsertedRows[] }): StoredRow[] {
  return (rows ?? []).map(([seq, eventId, prevSeq]) => ({ eventId, seq, prevSeq }));
}

/**
 * The only connection that inserts into `broker_event`. It holds a session advisory lock for as
 * long as it lives, so at most one writer exists and its batches commit one after the other:
 * `seq` values become visible in increasing order, which is what makes `seq > cursor` a replay
 * cursor that never skips an event. If the connection dies, PostgreSQL aborts its transaction and
 * releases the lock in the same moment, so a new writer can never overlap an old one.
 */
export class BrokerEventWriterRepository {
  private constructor(private readonly client: Client) {}

  /** Connects and takes the writer lock; null (connection closed) when another writer holds it. */
  static async tryAcquire(
    databaseUrl: string,
    onLost: (err: Error) => void,
  ): Promise<BrokerEventWriterRepository | null> {
    const client = new Client({
      connectionString: databaseUrl,
      application_name: 'artemis-studio-event-writer',
      connectionTimeoutMillis: 5000,
    });
    client.on('error', onLost);
    await client.connect();
    const [{ locked }] = (
      await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [WRITER_LOCK])
    ).rows;
    if (!locked) {
      await client.end();
      return null;
    }
    return new BrokerEventWriterRepository(client);
  }

  /**
   * Inserts a batch in one statement, each event given as the JSON it arrived in (validated on
   * receipt), and returns which events it stored with their seqs, in `seq` order. An event already
   * stored, or given twice in the batch, is skipped.
   *
   * `mayBeStored` says the batch holds a redelivery, which may have been stored before its
   * acknowledgement was lost. Without it the batch is first inserted with no duplicate check, which
   * costs PostgreSQL about a tenth less; a duplicate it meets anyway (an event published twice
   * outside the stream's duplicate window) fails that statement, and the batch goes again with
   * the check.
   */
  async insert(rawJson: readonly string[], { mayBeStored = true } = {}): Promise<StoredRow[]> {
    if (rawJson.length === 0) return [];
    const batch = `[${rawJson.join(',')}]`;
    const store = async (statement: PreparedStatement) =>
      storedRows(await this.client.query<InsertedRows>({ ...statement, values: [batch] }));
    if (!mayBeStored) {
      try {
        return await store(INSERT_ALL);
      } catch (err) {
        if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      }
    }
    return store(INSERT_SKIPPING_STORED);
  }

  async release(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
