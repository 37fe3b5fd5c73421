import { healthOf, type QueuePage, type QueueQuery, type Topology } from '@artemis-studio/contracts';
import { ClusterNodeEntity, NodeStateEntity } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATABASE_WAIT_MS } from '../gateway.config';

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
  observedAt: 's.observed_at',
  changedAt: 's.changed_at',
};
const rate = (value: unknown) => (value === null ? null : Number(value));

/** What a dead-letter or expiry queue is called, by Artemis' defaults and common practice. */
const KIND_PATTERNS: Record<NonNullable<QueueQuery['kind']>, string[]> = {
  dlq: ['%dlq%', '%dead%letter%'],
  expiry: ['%expir%'],
};

/** Reads of what the scraper persisted: topology from node_state, queues from queue_snapshot. */
@Injectable()
export class StateQueries {
  constructor(private readonly database: DatabaseService) {}

  private db(): Promise<DataSource> {
    return this.database.readyWithin(DATABASE_WAIT_MS);
  }

  async topology(clusterId: string): Promise<Topology> {
    const db = await this.db();
    const nodes = await db
      .getRepository(ClusterNodeEntity)
      .find({ where: { clusterId }, order: { position: 'ASC' } });
    const states = new Map(
      (await db.getRepository(NodeStateEntity).findBy({ clusterId })).map((s) => [s.nodeId, s]),
    );
    const observed = nodes.map((node) => {
      const s = states.get(node.id);
      return {
        name: node.name,
        reachable: s?.reachable ?? false,
        role: s?.role ?? ('unknown' as const),
        brokerNodeId: s?.brokerNodeId ?? null,
        version: s?.version ?? null,
        uptimeMs: s?.uptimeMs ?? null,
        connections: s?.connectionCount ?? null,
        replicaSync: s?.replicaSync ?? null,
        reason: s ? s.reason : 'not observed yet',
        observedAt: s?.observedAt.toISOString() ?? null,
      };
    });
    const seen = nodes.filter((n) => states.has(n.id)).map((n) => states.get(n.id)!);
    return { clusterId, health: seen.length === nodes.length ? healthOf(seen) : 'UNKNOWN', nodes: observed };
  }

  async queues(clusterId: string, query: QueueQuery): Promise<QueuePage> {
    const db = await this.db();
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
    if (query.consumers)
      where += query.consumers === 'with' ? ' AND s.consumer_count > 0' : ' AND s.consumer_count = 0';
    if (query.kind) {
      params.push(KIND_PATTERNS[query.kind]);
      where += ` AND s.name ILIKE ANY ($${params.length}::text[])`;
    }
    // Unknown rates (null) sort last either way: PostgreSQL would put them first in descending order.
    const order = `${SORT_COLUMNS[query.sort]} ${query.order === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, s.name, n.name`;
    params.push(query.pageSize, (query.page - 1) * query.pageSize);
    const rows = await db.query(
      `SELECT n.name AS node, s.*, count(*) OVER () AS total
         FROM queue_snapshot s JOIN cluster_node n ON n.id = s.node_id
        WHERE ${where} ORDER BY ${order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return {
      items: rows.map((r: Record<string, unknown>) => ({
        node: String(r.node),
        address: String(r.address),
        name: String(r.name),
        routingType: String(r.routing_type),
        messageCount: Number(r.message_count),
        consumerCount: Number(r.consumer_count),
        deliveringCount: Number(r.delivering_count),
        messagesAdded: Number(r.messages_added),
        messagesAcknowledged: Number(r.messages_acknowledged),
        messagesExpired: Number(r.messages_expired),
        messagesKilled: Number(r.messages_killed),
        addedPerSecond: rate(r.added_per_second),
        acknowledgedPerSecond: rate(r.acknowledged_per_second),
        expiredPerSecond: rate(r.expired_per_second),
        killedPerSecond: rate(r.killed_per_second),
        paused: Boolean(r.paused),
        durable: Boolean(r.durable),
        temporary: Boolean(r.temporary),
        observedAt: (r.observed_at as Date).toISOString(),
        changedAt: (r.changed_at as Date).toISOString(),
      })),
      total: rows.length ? Number(rows[0].total) : await this.count(where, params.slice(0, -2)),
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  private async count(where: string, params: unknown[]): Promise<number> {
    const db = await this.db();
    const [row] = await db.query(`SELECT count(*) FROM queue_snapshot s WHERE ${where}`, params);
    return Number(row.count);
  }
}
