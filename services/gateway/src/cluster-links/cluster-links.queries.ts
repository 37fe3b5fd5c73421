import type { BrokerConnection, ClusterLinks, CoreBridge } from '@artemis-studio/contracts';
import { rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import {
  clusterLinksOf,
  type ConnectionRecord,
  type RegisteredNode,
  type StrandedRecord,
} from './cluster-links';

/** The scraper's link tables and stranded queues of a cluster, beside its registered nodes. */
@Injectable()
export class ClusterLinksQueries {
  constructor(private readonly database: DatabaseService) {}

  async of(clusterId: string): Promise<ClusterLinks> {
    const db = await this.database.forRequest();
    const registered = await rowsOf<RegisteredNode>(
      db,
      `SELECT n.name, coalesce(s.role, 'unknown') AS role, coalesce(s.reachable, false) AS reachable,
              s.broker_node_id AS "brokerNodeId"
         FROM cluster_node n LEFT JOIN node_state s ON s.node_id = n.id
        WHERE n.cluster_id = $1 ORDER BY n.position`,
      [clusterId],
    );
    const connections = (
      await rowsOf<
        Omit<ConnectionRecord, 'messagesPendingAcknowledgement' | 'messagesAcknowledged'> & {
          pending: string | null;
          acknowledged: string | null;
        }
      >(
        db,
        `SELECT n.name AS node, c.name, c.started, c.max_hops AS "maxHops", c.broker_node_id AS "brokerNodeId",
                c.load_balancing AS "loadBalancing", c.members, c.connected_to AS "connectedTo",
                c.messages_pending_ack AS pending, c.messages_acknowledged AS acknowledged, c.observed_at AS "observedAt"
           FROM cluster_connection c JOIN cluster_node n ON n.id = c.node_id
          WHERE c.cluster_id = $1 ORDER BY n.position, c.name`,
        [clusterId],
      )
    ).map(({ pending, acknowledged, ...c }) => ({
      ...c,
      messagesPendingAcknowledgement: pending === null ? null : Number(pending),
      messagesAcknowledged: acknowledged === null ? null : Number(acknowledged),
    }));
    const stranded = await strandedOf(db, clusterId);
    return {
      ...clusterLinksOf(registered, connections, stranded),
      bridges: await bridgesOf(db, clusterId),
      brokerConnections: await brokerConnectionsOf(db, clusterId),
    };
  }
}

/** A cluster's broker connections, by node, direction and name. */
async function brokerConnectionsOf(
  db: Parameters<typeof rowsOf>[0],
  clusterId: string,
): Promise<BrokerConnection[]> {
  const rows = await rowsOf<{
    node: string;
    name: string;
    direction: BrokerConnection['direction'];
    peer: string;
    started: boolean;
    connected: boolean;
    fedSent: string | null;
    fedReceived: string | null;
    mirrorQueue: string | null;
    mirrorBacklog: string | null;
    mirrorOldestAt: Date | null;
    observedAt: Date;
  }>(
    db,
    `SELECT n.name AS node, c.name, c.direction, c.peer_broker_node_id AS peer, c.started, c.connected,
            c.federation_sent AS "fedSent", c.federation_received AS "fedReceived",
            c.mirror_queue AS "mirrorQueue", c.mirror_backlog AS "mirrorBacklog",
            c.mirror_oldest_at AS "mirrorOldestAt", c.observed_at AS "observedAt"
       FROM broker_connection c JOIN cluster_node n ON n.id = c.node_id
      WHERE c.cluster_id = $1 ORDER BY n.position, c.direction DESC, c.name, c.peer_broker_node_id`,
    [clusterId],
  );
  return rows.map((r) => ({
    node: r.node,
    name: r.name,
    direction: r.direction,
    peerBrokerNodeId: r.peer === '' ? null : r.peer,
    started: r.started,
    connected: r.connected,
    federation:
      r.fedSent === null || r.fedReceived === null
        ? null
        : { messagesSent: Number(r.fedSent), messagesReceived: Number(r.fedReceived) },
    mirror:
      r.mirrorQueue === null || r.mirrorBacklog === null
        ? null
        : {
            queue: r.mirrorQueue,
            messages: Number(r.mirrorBacklog),
            oldestMessageAt: r.mirrorOldestAt?.toISOString() ?? null,
          },
    observedAt: r.observedAt.toISOString(),
  }));
}

/** A cluster's core bridges, by node and name. */
async function bridgesOf(db: Parameters<typeof rowsOf>[0], clusterId: string): Promise<CoreBridge[]> {
  const rows = await rowsOf<
    Omit<CoreBridge, 'messagesAcknowledged' | 'messagesPendingAcknowledgement' | 'observedAt'> & {
      acknowledged: string | null;
      pending: string | null;
      observedAt: Date;
    }
  >(
    db,
    `SELECT n.name AS node, b.name, b.started, b.connected, b.queue_name AS "queueName",
            b.forwarding_address AS "forwardingAddress", b.messages_acknowledged AS acknowledged,
            b.messages_pending_ack AS pending, b.observed_at AS "observedAt"
       FROM core_bridge b JOIN cluster_node n ON n.id = b.node_id
      WHERE b.cluster_id = $1 ORDER BY n.position, b.name`,
    [clusterId],
  );
  return rows.map(({ acknowledged, pending, observedAt, ...b }) => ({
    ...b,
    messagesAcknowledged: acknowledged === null ? null : Number(acknowledged),
    messagesPendingAcknowledgement: pending === null ? null : Number(pending),
    observedAt: observedAt.toISOString(),
  }));
}

/** A cluster's stranded messages, the most first; of some queues only when `queues` is given. */
export async function strandedOf(
  db: Parameters<typeof rowsOf>[0],
  clusterId: string,
  queues?: readonly string[],
): Promise<StrandedRecord[]> {
  const rows = await rowsOf<Omit<StrandedRecord, 'messages'> & { messages: string }>(
    db,
    `SELECT s.queue, s.address, n.name AS node, s.message_count AS messages, s.oldest_message_at AS "oldestMessageAt",
            ARRAY(SELECT c.name FROM cluster_node c WHERE c.id = ANY(s.consumer_node_ids) ORDER BY c.position) AS "consumersOn",
            s.reason, s.detail, s.since, s.observed_at AS "observedAt"
       FROM stranded_queue s JOIN cluster_node n ON n.id = s.node_id
      WHERE s.cluster_id = $1 AND ($2::text[] IS NULL OR s.queue = ANY($2::text[]))
      ORDER BY s.message_count DESC, s.queue, n.position`,
    [clusterId, queues ?? null],
  );
  return rows.map((r) => ({ ...r, messages: Number(r.messages) }));
}
