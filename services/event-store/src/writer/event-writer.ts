import type { BrokerEvent, RawBrokerEvent } from '@artemis-studio/contracts';
import { Client } from 'pg';

/** One writer at a time, across every replica. */
const WRITER_LOCK = 'artemis-studio:event-writer';

/**
 * The only connection that inserts into `broker_event`. It holds a session advisory lock for as
 * long as it lives, so at most one writer exists and its batches commit one after the other:
 * `seq` values become visible in increasing order, which is what makes `seq > cursor` a replay
 * cursor that never skips an event. If the connection dies, PostgreSQL aborts its transaction and
 * releases the lock in the same moment, so a new writer can never overlap an old one.
 */
export class EventWriter {
  private constructor(private readonly client: Client) {}

  /** Connects and takes the writer lock; null (connection closed) when another writer holds it. */
  static async tryAcquire(databaseUrl: string, onLost: (err: Error) => void): Promise<EventWriter | null> {
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
    return new EventWriter(client);
  }

  /**
   * Inserts a batch in one statement; returns the events it stored, in `seq` order. An event
   * already stored (a redelivery after a crash between commit and acknowledgement), or given twice
   * in the batch, is skipped. One round trip whatever the batch size: a COPY of the same rows was
   * measured no faster end to end (docs/benchmarks.md) for three more round trips per batch.
   */
  async insert(events: RawBrokerEvent[]): Promise<BrokerEvent[]> {
    if (events.length === 0) return [];
    const column = <K extends keyof RawBrokerEvent>(key: K) => events.map((e) => e[key]);
    const { rows } = await this.client.query<{ seq: string; event_id: string }>(
      `INSERT INTO broker_event (broker_ts, received_at, cluster_id, event_id, type, node, address, queue,
                                 consumer, session, connection, remote_address, "user", props)
       SELECT * FROM unnest($1::timestamptz[], $2::timestamptz[], $3::uuid[], $4::uuid[], $5::text[], $6::text[],
                            $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[],
                            $14::jsonb[])
       ON CONFLICT (event_id) DO NOTHING
       RETURNING seq, event_id`,
      [
        column('brokerTs'),
        column('receivedAt'),
        column('clusterId'),
        column('eventId'),
        column('type'),
        column('node'),
        column('address'),
        column('queue'),
        column('consumer'),
        column('session'),
        column('connection'),
        column('remoteAddress'),
        column('user'),
        events.map((e) => JSON.stringify(e.props)),
      ],
    );
    const byId = new Map(events.map((e) => [e.eventId, e]));
    return rows.map((r) => ({ ...byId.get(r.event_id)!, seq: Number(r.seq) })).sort((a, b) => a.seq - b.seq);
  }

  async release(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
