import type { QueuePage, QueueQuery, QueueRow } from '@artemis-studio/contracts';
import { firstRow, rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';

/**
 * When a queue's figures were last read: a snapshot that did not change is not rewritten (ADR-0019),
 * so it was read at its node's last tick too, unless it went unread since (`sampled_at` cleared).
 */
const READ_AT = `CASE WHEN s.sampled_at IS NULL THEN s.observed_at ELSE greatest(s.observed_at, n.ticked_at) END`;

const SORT_COLUMNS: Record<QueueQuery['sort'], string> = {
  name: 's.name',
  address: 's.address',
  messageCount: 's.message_count',
  consumerCount: 's.consumer_count',
  deliveringCount: 's.delivering_count',
  messagesAdded: 's.messages_added',
  messagesAcknowledged: 's.messages_acknowledged',
  messagesExpired: 's.messages_expired',
  messagesKilled: 's.messages_killed',
  addedPerSecond: 's.added_per_second',
  acknowledgedPerSecond: 's.acknowledged_per_second',
  expiredPerSecond: 's.expired_per_second',
  killedPerSecond: 's.killed_per_second',
  observedAt: READ_AT,
  changedAt: 's.changed_at',
};

/** What a dead-letter or expiry queue is called, by Artemis' defaults and common practice. */
const KIND_PATTERNS: Record<NonNullable<QueueQuery['kind']>, string[]> = {
  dlq: ['%dlq%', '%dead%letter%'],
  expiry: ['%expir%'],
};

/** A `queue_snapshot` row with its node's name and the page's total (bigint comes as text). */
interface QueueSnapshotRecord {
  node: string;
  address: string;
  name: string;
  routing_type: string;
  message_count: string;
  consumer_count: number;
  delivering_count: string;
  messages_added: string;
  messages_acknowledged: string;
  messages_expired: string;
  messages_killed: string;
  added_per_second: number | null;
  acknowledged_per_second: number | null;
  expired_per_second: number | null;
  killed_per_second: number | null;
  paused: boolean;
  pause_persist: boolean | null;
  paused_by: string | null;
  paused_at: Date | null;
  durable: boolean;
  temporary: boolean;
  first_message_at: Date | null;
  /** When its figures were last read (`READ_AT`). */
  read_at: Date;
  changed_at: Date;
  total: string;
}

/** The counters (bigint, as text) and rates of a queue row, per node or summed over the nodes. */
export function countsAndRates(
  r: Pick<
    QueueSnapshotRecord,
    | 'delivering_count'
    | 'messages_added'
    | 'messages_acknowledged'
    | 'messages_expired'
    | 'messages_killed'
    | 'added_per_second'
    | 'acknowledged_per_second'
    | 'expired_per_second'
    | 'killed_per_second'
  >,
) {
  return {
    deliveringCount: Number(r.delivering_count),
    messagesAdded: Number(r.messages_added),
    messagesAcknowledged: Number(r.messages_acknowledged),
    messagesExpired: Number(r.messages_expired),
    messagesKilled: Number(r.messages_killed),
    addedPerSecond: r.added_per_second,
    acknowledgedPerSecond: r.acknowledged_per_second,
    expiredPerSecond: r.expired_per_second,
    killedPerSecond: r.killed_per_second,
  };
}

const toQueue = (r: QueueSnapshotRecord): QueueRow => ({
  node: r.node,
  address: r.address,
  name: r.name,
  routingType: r.routing_type,
  messageCount: Number(r.message_count),
  consumerCount: r.consumer_count,
  ...countsAndRates(r),
  paused: r.paused,
  // What Studio knows of the pause it made: the broker says a queue is paused, never whether persistently.
  pause:
    r.paused && r.pause_persist !== null
      ? { persist: r.pause_persist, by: r.paused_by, at: r.paused_at!.toISOString() }
      : null,
  durable: r.durable,
  temporary: r.temporary,
  oldestMessageAt: r.first_message_at?.toISOString() ?? null,
  observedAt: r.read_at.toISOString(),
  changedAt: r.changed_at.toISOString(),
});

/**
 * The WHERE of a queue query over `queue_snapshot s`, and its parameters ($1 the cluster); the
 * filter on consumers is the caller's (a node's, or the cluster's total).
 */
export function filterOf(clusterId: string, query: QueueQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [clusterId];
  let where = 's.cluster_id = $1';
  if (query.search) {
    params.push(`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` AND (s.name ILIKE $${params.length} OR s.address ILIKE $${params.length})`;
  }
  if (query.address !== undefined) {
    params.push(query.address);
    where += ` AND s.address = $${params.length}`;
  }
  if (query.routingType) {
    params.push(query.routingType);
    where += ` AND upper(s.routing_type) = $${params.length}`;
  }
  if (query.kind) {
    params.push(KIND_PATTERNS[query.kind]);
    where += ` AND s.name ILIKE ANY ($${params.length}::text[])`;
  }
  return { where, params };
}

/**
 * A page's total: carried by its rows (`count(*) OVER ()`), or, on a page past the end that has
 * none to carry it, counted on its own by `count`.
 */
export async function totalOf(
  db: Parameters<typeof firstRow>[0],
  rows: readonly { total: string }[],
  count: string,
  params: readonly unknown[],
): Promise<number> {
  if (rows.length > 0) return Number(rows[0].total);
  return Number((await firstRow<{ count: string }>(db, count, params))?.count ?? 0);
}

/** Queues as the scraper last persisted them (queue_snapshot): filtered, sorted, paged. */
@Injectable()
export class QueueSnapshotQueries {
  constructor(private readonly database: DatabaseService) {}

  async page(clusterId: string, query: QueueQuery): Promise<QueuePage> {
    const db = await this.database.forRequest();
    const filter = filterOf(clusterId, query);
    const params = filter.params;
    const where =
      filter.where +
      (query.consumers === undefined
        ? ''
        : ` AND s.consumer_count ${query.consumers === 'with' ? '> 0' : '= 0'}`);
    // Unknown rates (null) sort last either way: PostgreSQL would put them first in descending order.
    const order = `${SORT_COLUMNS[query.sort]} ${query.order === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, s.name, n.name`;
    const rows = await rowsOf<QueueSnapshotRecord>(
      db,
      `WITH n AS (
         SELECT id, name,
                (SELECT max(ticked_at) FROM queue_tick t
                  WHERE t.cluster_id = $1 AND t.node_id = cluster_node.id AND t.ticked_at >= $${params.length + 3}) AS ticked_at
           FROM cluster_node WHERE cluster_id = $1
       )
       SELECT n.name AS node, s.*, ${READ_AT} AS read_at, p.persist AS pause_persist, p.paused_by, p.paused_at,
              count(*) OVER () AS total
         FROM queue_snapshot s JOIN n ON n.id = s.node_id
         LEFT JOIN queue_pause p ON p.cluster_id = s.cluster_id AND p.queue = s.name
        WHERE ${where} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      // A node's last tick within a day: a parameter, so that planning leaves out the older hours'
      // partitions (ADR-0021); a node unread for longer has its queues read when last written.
      [...params, query.pageSize, (query.page - 1) * query.pageSize, new Date(Date.now() - 86_400_000)],
    );
    const total = await totalOf(db, rows, `SELECT count(*) FROM queue_snapshot s WHERE ${where}`, params);
    return { items: rows.map(toQueue), total, page: query.page, pageSize: query.pageSize };
  }
}
