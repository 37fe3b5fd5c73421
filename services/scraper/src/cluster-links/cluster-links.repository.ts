import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ClusterConnectionReading } from '../topology/cluster-connection';
import type { BrokerConnectionReading, MirrorBacklog } from '../topology/broker-connection';
import type { CoreBridgeReading } from '../topology/core-bridge';
import type { StrandedQueue } from './stranded-messages';

/** A core bridge as stored: whether it consumed its queue at the read beside what the broker said. */
interface StoredBridge extends CoreBridgeReading {
  connected: boolean;
}

/** A broker connection as stored: the backlog of its mirror, read from the node's queues, beside it. */
interface StoredBrokerConnection extends BrokerConnectionReading {
  mirror: MirrorBacklog | null;
}

/** A live node's links as one tick read them; null: unread, their last rows stay. */
export interface NodeConnections {
  nodeId: string;
  connections: readonly ClusterConnectionReading[] | null;
  bridges: readonly StoredBridge[] | null;
  brokerConnections: readonly StoredBrokerConnection[] | null;
}

/**
 * `cluster_connection`, `core_bridge`, `broker_connection` and `stranded_queue`, rewritten at each
 * tier-B tick of the cluster. A
 * stranded queue keeps its `since` while it stays stranded, whatever its count or reason.
 */
@Injectable()
export class ClusterLinksRepository {
  constructor(@Inject(DatabaseService) private readonly database: Pick<DatabaseService, 'whenReady'>) {}

  async record(
    clusterId: string,
    observedAt: Date,
    nodes: readonly NodeConnections[],
    stranded: readonly StrandedQueue[],
  ): Promise<void> {
    const db = await this.database.whenReady();
    const read = nodes.filter((n) => n.connections !== null);
    const rows = read.flatMap((n) => n.connections!.map((c) => ({ nodeId: n.nodeId, c })));
    const column = <T>(of: (r: (typeof rows)[number]) => T) => rows.map(of);
    const strandedColumn = <T>(of: (s: StrandedQueue) => T) => stranded.map(of);
    await db.transaction(async (tx) => {
      // A node no longer live, or read again, loses its rows; one that could not be read keeps them.
      await tx.query(
        `DELETE FROM cluster_connection WHERE cluster_id = $1 AND (node_id <> ALL($2::uuid[]) OR node_id = ANY($3::uuid[]))`,
        [clusterId, nodes.map((n) => n.nodeId), read.map((n) => n.nodeId)],
      );
      if (rows.length > 0)
        await tx.query(
          `INSERT INTO cluster_connection (cluster_id, observed_at, node_id, name, started, max_hops, broker_node_id,
                                           load_balancing, members, connected_to, messages_pending_ack, messages_acknowledged)
           SELECT $1, $2, t.* FROM unnest($3::uuid[], $4::text[], $5::bool[], $6::int[], $7::text[], $8::text[],
                                          $9::jsonb[], $10::jsonb[], $11::bigint[], $12::bigint[])
             AS t(node_id, name, started, max_hops, broker_node_id, load_balancing, members, connected_to,
                  messages_pending_ack, messages_acknowledged)`,
          [
            clusterId,
            observedAt,
            column((r) => r.nodeId),
            column((r) => r.c.name),
            column((r) => r.c.started),
            column((r) => r.c.maxHops),
            column((r) => r.c.brokerNodeId),
            column((r) => r.c.loadBalancing),
            column((r) => JSON.stringify(r.c.members)),
            column((r) => JSON.stringify(r.c.connectedTo)),
            column((r) => r.c.messagesPendingAcknowledgement),
            column((r) => r.c.messagesAcknowledged),
          ],
        );
      const at = { clusterId, observedAt };
      await this.rewrite(
        tx,
        'core_bridge',
        at,
        nodes.map((n) => ({ nodeId: n.nodeId, links: n.bridges })),
        [
          ['name', 'text', (b) => b.name],
          ['started', 'bool', (b) => b.started],
          ['connected', 'bool', (b) => b.connected],
          ['queue_name', 'text', (b) => b.queueName],
          ['forwarding_address', 'text', (b) => b.forwardingAddress],
          ['messages_acknowledged', 'bigint', (b) => b.messagesAcknowledged],
          ['messages_pending_ack', 'bigint', (b) => b.messagesPendingAcknowledgement],
        ],
      );
      await this.rewrite(
        tx,
        'broker_connection',
        at,
        nodes.map((n) => ({ nodeId: n.nodeId, links: n.brokerConnections })),
        [
          ['name', 'text', (c) => c.name],
          ['direction', 'text', (c) => c.direction],
          ['peer_broker_node_id', 'text', (c) => c.peerBrokerNodeId ?? ''],
          ['started', 'bool', (c) => c.started],
          ['connected', 'bool', (c) => c.connected],
          ['federation_sent', 'bigint', (c) => c.federation?.messagesSent ?? null],
          ['federation_received', 'bigint', (c) => c.federation?.messagesReceived ?? null],
          ['mirror_queue', 'text', (c) => c.mirror?.queue ?? null],
          ['mirror_backlog', 'bigint', (c) => c.mirror?.messages ?? null],
          ['mirror_oldest_at', 'timestamptz', (c) => c.mirror?.oldestMessageAt ?? null],
        ],
      );
      if (stranded.length > 0)
        await tx.query(
          `INSERT INTO stranded_queue (cluster_id, observed_at, since, node_id, queue, address, message_count,
                                       oldest_message_at, consumer_node_ids, reason, detail)
           SELECT $1, $2, $2, t.node_id, t.queue, t.address, t.message_count, t.oldest_message_at,
                  ARRAY(SELECT jsonb_array_elements_text(t.consumer_node_ids))::uuid[], t.reason, t.detail
             FROM unnest($3::uuid[], $4::text[], $5::text[], $6::bigint[], $7::timestamptz[], $8::jsonb[],
                         $9::text[], $10::text[])
               AS t(node_id, queue, address, message_count, oldest_message_at, consumer_node_ids, reason, detail)
           ON CONFLICT (node_id, queue) DO UPDATE SET
             address = excluded.address, message_count = excluded.message_count,
             oldest_message_at = excluded.oldest_message_at, consumer_node_ids = excluded.consumer_node_ids,
             reason = excluded.reason, detail = excluded.detail, observed_at = excluded.observed_at`,
          [
            clusterId,
            observedAt,
            strandedColumn((s) => s.nodeId),
            strandedColumn((s) => s.queue),
            strandedColumn((s) => s.address),
            strandedColumn((s) => s.messages),
            strandedColumn((s) => s.oldestMessageAt),
            strandedColumn((s) => JSON.stringify(s.consumerNodeIds)),
            strandedColumn((s) => s.reason),
            strandedColumn((s) => s.detail),
          ],
        );
      // No longer stranded (moved, consumed, a consumer came): gone from the list.
      await tx.query(`DELETE FROM stranded_queue WHERE cluster_id = $1 AND observed_at < $2`, [
        clusterId,
        observedAt,
      ]);
    });
  }

  /**
   * One kind of link per node, as the connections: a node read again is rewritten, one unread keeps
   * its rows. `columns` are the table's own, each with its SQL array type and its value.
   */
  private async rewrite<L>(
    tx: EntityManager,
    table: 'core_bridge' | 'broker_connection',
    at: { clusterId: string; observedAt: Date },
    nodes: readonly { nodeId: string; links: readonly L[] | null }[],
    columns: readonly [name: string, type: string, of: (link: L) => unknown][],
  ): Promise<void> {
    const read = nodes.filter((n) => n.links !== null);
    await tx.query(
      `DELETE FROM ${table} WHERE cluster_id = $1 AND (node_id <> ALL($2::uuid[]) OR node_id = ANY($3::uuid[]))`,
      [at.clusterId, nodes.map((n) => n.nodeId), read.map((n) => n.nodeId)],
    );
    const rows = read.flatMap((n) => n.links!.map((link) => ({ nodeId: n.nodeId, link })));
    if (rows.length === 0) return;
    const arrays = columns.map(([, type], i) => `$${i + 4}::${type}[]`).join(', ');
    const names = columns.map(([name]) => name).join(', ');
    await tx.query(
      `INSERT INTO ${table} (cluster_id, observed_at, node_id, ${names})
       SELECT $1, $2, t.* FROM unnest($3::uuid[], ${arrays}) AS t(node_id, ${names})`,
      [
        at.clusterId,
        at.observedAt,
        rows.map((r) => r.nodeId),
        ...columns.map(([, , of]) => rows.map((r) => of(r.link))),
      ],
    );
  }

  /** A cluster let go of for good: its rows go with it (the foreign keys take them on deletion). */
  async forget(clusterId: string): Promise<void> {
    const db = await this.database.whenReady();
    await db.query(`DELETE FROM core_bridge WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM broker_connection WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM stranded_queue WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM cluster_connection WHERE cluster_id = $1`, [clusterId]);
  }
}
