import type { ClusterQueuePage, ClusterQueueRow, QueueQuery } from '@artemis-studio/contracts';
import { rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { strandedOf } from '../cluster-links/cluster-links.queries';
import { strandedMessages } from '../cluster-links/cluster-links';
import { countsAndRates, filterOf, totalOf } from './queue-snapshot.queries';

/** A rate summed over the nodes: unknown when any node's is. */
const summedRate = (column: string) =>
  `CASE WHEN bool_and(s.${column} IS NOT NULL) THEN sum(s.${column}) END`;
const COUNTS = [
  'message_count',
  'consumer_count',
  'delivering_count',
  'messages_added',
  'messages_acknowledged',
  'messages_expired',
  'messages_killed',
] as const;
const RATES = [
  'added_per_second',
  'acknowledged_per_second',
  'expired_per_second',
  'killed_per_second',
] as const;

const SORT_COLUMNS: Record<QueueQuery['sort'], string> = {
  name: 'name',
  address: 'address',
  messageCount: 'message_count',
  consumerCount: 'consumer_count',
  deliveringCount: 'delivering_count',
  messagesAdded: 'messages_added',
  messagesAcknowledged: 'messages_acknowledged',
  messagesExpired: 'messages_expired',
  messagesKilled: 'messages_killed',
  addedPerSecond: 'added_per_second',
  acknowledgedPerSecond: 'acknowledged_per_second',
  expiredPerSecond: 'expired_per_second',
  killedPerSecond: 'killed_per_second',
  observedAt: 'observed_at',
  changedAt: 'changed_at',
};

/** A page row: bigint sums come as text, the nodes as JSON. */
type ClusterQueueRecord = Record<(typeof COUNTS)[number], string> &
  Record<(typeof RATES)[number], number | null> & {
    name: string;
    address: string;
    routing_type: string;
    paused: boolean;
    durable: boolean;
    first_message_at: Date | null;
    changed_at: Date;
    observed_at: Date;
    nodes: (Omit<ClusterQueueRow['nodes'][number], 'messageCount' | 'deliveringCount'> & {
      messageCount: string | number;
      deliveringCount: string | number;
    })[];
    total: string;
  };

/**
 * Each queue once for the whole cluster (issue 59): its figures summed over the live nodes that
 * hold it, each node's beside them, and where its messages are stranded. Filtered, sorted and
 * paged as the per-node list is; "with consumers" means on any node. The page is cut from the
 * sums first, and only its rows are spelt out node by node.
 */
@Injectable()
export class ClusterQueueQueries {
  constructor(private readonly database: DatabaseService) {}

  async page(clusterId: string, query: QueueQuery): Promise<ClusterQueuePage> {
    const db = await this.database.forRequest();
    const { where, params } = filterOf(clusterId, query);
    const having =
      query.consumers === undefined
        ? ''
        : `HAVING sum(s.consumer_count) ${query.consumers === 'with' ? '> 0' : '= 0'}`;
    // Unknown rates (null) sort last either way, as in the per-node list.
    const order = `${SORT_COLUMNS[query.sort]} ${query.order === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, name`;
    const rows = await rowsOf<ClusterQueueRecord>(
      db,
      `WITH queues AS (
         SELECT s.name, min(s.address) AS address, min(s.routing_type) AS routing_type,
                ${COUNTS.map((c) => `sum(s.${c}) AS ${c}`).join(', ')},
                ${RATES.map((r) => `${summedRate(r)} AS ${r}`).join(', ')},
                bool_or(s.paused) AS paused, bool_and(s.durable) AS durable,
                min(s.first_message_at) AS first_message_at, max(s.changed_at) AS changed_at,
                max(s.observed_at) AS observed_at
           FROM queue_snapshot s WHERE ${where} GROUP BY s.name ${having}
       ), page AS (
         SELECT *, count(*) OVER () AS total, row_number() OVER (ORDER BY ${order}) AS position
           FROM queues ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}
       )
       SELECT page.*,
              (SELECT jsonb_agg(jsonb_build_object(
                        'node', n.name, 'messageCount', s.message_count, 'consumerCount', s.consumer_count,
                        'deliveringCount', s.delivering_count, 'addedPerSecond', s.added_per_second,
                        'acknowledgedPerSecond', s.acknowledged_per_second,
                        'oldestMessageAt', to_char(s.first_message_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                      ) ORDER BY n.position)
                 FROM queue_snapshot s JOIN cluster_node n ON n.id = s.node_id
                WHERE s.cluster_id = $1 AND s.name = page.name) AS nodes
         FROM page ORDER BY position`,
      [...params, query.pageSize, (query.page - 1) * query.pageSize],
    );
    const stranded = await strandedOf(
      db,
      clusterId,
      rows.map((r) => r.name),
    );
    const items = rows.map((r): ClusterQueueRow => ({
      name: r.name,
      address: r.address,
      routingType: r.routing_type,
      messageCount: Number(r.message_count),
      consumerCount: Number(r.consumer_count),
      ...countsAndRates(r),
      paused: r.paused,
      durable: r.durable,
      oldestMessageAt: r.first_message_at?.toISOString() ?? null,
      changedAt: r.changed_at.toISOString(),
      observedAt: r.observed_at.toISOString(),
      nodes: r.nodes.map((n) => ({
        ...n,
        messageCount: Number(n.messageCount),
        deliveringCount: Number(n.deliveringCount),
      })),
      stranded: stranded.filter((s) => s.queue === r.name).map(strandedMessages),
    }));
    const total = await totalOf(
      db,
      rows,
      `SELECT count(*) FROM (SELECT 1 FROM queue_snapshot s WHERE ${where} GROUP BY s.name ${having}) q`,
      params,
    );
    return { items, total, page: query.page, pageSize: query.pageSize };
  }
}
