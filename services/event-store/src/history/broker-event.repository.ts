import type { BrokerEvent, DropReport, EventDrops, EventsPage, EventsQuery } from '@artemis-studio/contracts';
import {
  BROKER_EVENT_DAYS,
  changeOf,
  ensurePartitions,
  EVENT_PARTITIONS_AHEAD_MS,
  Filters,
  pageBefore,
  preparedRowsOf,
  reapPartitions,
  rowsOf,
  type PreparedStatement,
  type Reaped,
} from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';

interface EventRow {
  seq: string;
  broker_ts: Date | null;
  received_at: Date;
  cluster_id: string;
  event_id: string;
  type: string;
  node: string;
  address: string | null;
  queue: string | null;
  consumer: string | null;
  session: string | null;
  connection: string | null;
  remote_address: string | null;
  user: string | null;
  props: BrokerEvent['props'];
}

const toEvent = (r: EventRow): BrokerEvent => ({
  seq: Number(r.seq),
  eventId: r.event_id,
  clusterId: r.cluster_id,
  node: r.node,
  type: r.type,
  brokerTs: r.broker_ts?.toISOString() ?? null,
  receivedAt: r.received_at.toISOString(),
  address: r.address,
  queue: r.queue,
  consumer: r.consumer,
  session: r.session,
  connection: r.connection,
  remoteAddress: r.remote_address,
  user: r.user,
  props: r.props,
});

/**
 * What every reconnect runs, prepared and planned once (ADR-0025): by `seq`, which says nothing of
 * the day, so each reads every day's partition, and with a long retention planning was most of
 * their cost.
 */
export const REPLAY = {
  oldestAfter: {
    name: 'broker-event-oldest-after',
    text: `SELECT * FROM broker_event WHERE cluster_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
  },
  newestAfter: {
    name: 'broker-event-newest-after',
    text: `SELECT * FROM (SELECT * FROM broker_event WHERE cluster_id = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3) t ORDER BY seq`,
  },
  countBetween: {
    name: 'broker-event-count-between',
    text: `SELECT count(*) FROM broker_event WHERE cluster_id = $1 AND seq > $2 AND seq < $3`,
  },
  newestSeq: {
    name: 'broker-event-newest-seq',
    text: `SELECT coalesce(max(seq), 0) AS seq FROM broker_event WHERE cluster_id = $1`,
  },
} satisfies Record<string, PreparedStatement>;

/** Reads of `broker_event` and the drop counters; every query is served by an index. */
@Injectable()
export class BrokerEventRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Last-Event-ID replay: the events after the cursor, ascending (index broker_event_cluster_seq).
   * With `newest`, the most recent `limit` of them, and `skipped`: how many older ones after the
   * cursor the limit left out, so the stream can say so instead of leaving a silent gap.
   */
  async since(
    clusterId: string,
    afterSeq: number,
    limit: number,
    newest = false,
  ): Promise<{ events: BrokerEvent[]; skipped?: number }> {
    const db = await this.database.forPrepared();
    if (!newest) {
      const rows = await preparedRowsOf<EventRow>(db, REPLAY.oldestAfter, [clusterId, afterSeq, limit]);
      return { events: rows.map(toEvent) };
    }
    const rows = await preparedRowsOf<EventRow>(db, REPLAY.newestAfter, [clusterId, afterSeq, limit]);
    const events = rows.map(toEvent);
    if (events.length < limit) return { events, skipped: 0 };
    const [counted] = await preparedRowsOf<{ count: string }>(db, REPLAY.countBetween, [
      clusterId,
      afterSeq,
      events[0].seq,
    ]);
    return { events, skipped: Number(counted?.count ?? 0) };
  }

  /** The cluster's newest stored seq, 0 when it has none (index broker_event_cluster_seq). */
  async newestSeq(clusterId: string): Promise<number> {
    const db = await this.database.forPrepared();
    const [row] = await preparedRowsOf<{ seq: string }>(db, REPLAY.newestSeq, [clusterId]);
    return Number(row?.seq ?? 0);
  }

  /** History, newest first, keyset-paged by `seq`, filtered; always with the cluster's `dropped`. */
  async history(clusterId: string, query: EventsQuery): Promise<EventsPage> {
    const filters = new Filters()
      .add('cluster_id = ?', clusterId)
      .add('type = ?', query.type)
      .add('address = ?', query.address)
      .add('queue = ?', query.queue)
      .add('node = ?', query.node)
      .add('consumer = ?', query.consumer)
      .add('received_at >= ?', query.from)
      .add('received_at < ?', query.to);
    const { rows, nextBefore } = await pageBefore<EventRow>(
      await this.database.forRequest(),
      'broker_event',
      filters,
      query,
    );
    return { items: rows.map(toEvent), nextCursor: nextBefore, ...(await this.drops(clusterId)) };
  }

  /** The cluster's losses, in total and by source with the period each covers. */
  async drops(clusterId: string): Promise<{ dropped: number; drops: EventDrops[] }> {
    const rows = await rowsOf<{
      source: EventDrops['source'];
      dropped: string;
      first_at: Date;
      last_at: Date;
    }>(
      await this.database.forRequest(),
      `SELECT source, dropped, first_at, last_at FROM event_drop_counter
        WHERE cluster_id = $1 AND dropped > 0 ORDER BY last_at DESC`,
      [clusterId],
    );
    const drops = rows.map((r) => ({
      source: r.source,
      dropped: Number(r.dropped),
      firstAt: r.first_at.toISOString(),
      lastAt: r.last_at.toISOString(),
    }));
    return { dropped: drops.reduce((sum, d) => sum + d.dropped, 0), drops };
  }

  /** Adds a drop report to its cluster's counter, once per report id (a retry is recognised). */
  async recordDrops(report: DropReport): Promise<number> {
    await this.database.transaction(async (tx) => {
      const inserted = await rowsOf<{ report_id: string }>(
        tx,
        `INSERT INTO event_drop_report (report_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING report_id`,
        [report.reportId],
      );
      if (inserted.length === 0) return;
      await rowsOf(
        tx,
        `INSERT INTO event_drop_counter AS c (cluster_id, source, dropped, first_at, last_at)
         VALUES ($1, $2, $3, $5, $4)
         ON CONFLICT (cluster_id, source) DO UPDATE
           SET dropped = c.dropped + EXCLUDED.dropped, updated_at = now(),
               first_at = least(c.first_at, EXCLUDED.first_at), last_at = greatest(c.last_at, EXCLUDED.last_at)`,
        [report.clusterId, report.source, report.count, report.ts, report.from ?? report.ts],
      );
    });
    return (await this.drops(report.clusterId)).dropped;
  }

  /**
   * Removes the events past the cut-off (ADR-0025): each day's partition that ended by then is
   * dropped whole, and the default partition's events received before it are deleted in bounded
   * batches; also forgets drop-report ids as old.
   */
  async reap(olderThan: Date, batchSize = 5000): Promise<Reaped> {
    const db = await this.database.forRequest();
    const reaped = await reapPartitions(db, BROKER_EVENT_DAYS, olderThan, batchSize);
    await changeOf(db, `DELETE FROM event_drop_report WHERE received_at < $1`, [olderThan]);
    return reaped;
  }

  /**
   * The days' partitions from today to EVENT_PARTITIONS_AHEAD_MS ahead; what was written meanwhile
   * into the default partition moves into its day's. Returns how many were made.
   */
  async makeDaysAhead(now = new Date()): Promise<number> {
    const db = await this.database.whenReady();
    return ensurePartitions(db, BROKER_EVENT_DAYS, now, new Date(now.getTime() + EVENT_PARTITIONS_AHEAD_MS));
  }
}
