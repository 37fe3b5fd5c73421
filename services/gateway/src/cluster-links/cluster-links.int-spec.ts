import { ClusterLinksSchema, ClusterQueuePageSchema } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  insertCluster,
  signIn,
  spawnService,
  testDatabaseUrl,
  type ApiSession,
  type ServiceProcess,
} from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';

/**
 * GET …/cluster-links and …/queues/across-nodes over what the scraper stores, written straight into
 * real PostgreSQL: three registered nodes, two of them clustered (b9 a member nobody registered,
 * n3 live but in neither topology), and orders held on n2 while its consumer is on n1.
 */
describe('the cluster as its brokers see it, through the gateway', () => {
  let db: DataSource;
  let gateway: ServiceProcess;
  let api: ApiSession;
  let cluster: { id: string; nodeIds: string[] };
  const get = async (path: string) => {
    const response = await api.fetch(`${gateway.url}/api/v1/clusters/${cluster.id}${path}`);
    expect(response.status).toBe(200);
    return (await response.json()) as unknown;
  };
  const since = new Date(Date.now() - 120_000);

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    cluster = await insertCluster(db, {
      nodes: ['n1', 'n2', 'n3'].map((name, i) => ({
        name,
        jolokiaUrl: `http://127.0.0.1:${i + 1}/console/jolokia`,
      })),
    });
    const [n1, n2, n3] = cluster.nodeIds;
    for (const [node, brokerId] of [
      [n1, 'b1'],
      [n2, 'b2'],
      [n3, 'b3'],
    ])
      await db.query(
        `INSERT INTO node_state (node_id, cluster_id, observed_at, reachable, role, broker_node_id)
         VALUES ($1, $2, now(), true, 'live', $3)`,
        [node, cluster.id, brokerId],
      );
    const member = (id: string, port: number) => ({
      brokerNodeId: id,
      live: `10.0.0.1:${port}`,
      backup: null,
    });
    for (const [node, brokerId, maxHops] of [
      [n1, 'b1', 1],
      [n2, 'b2', 0],
    ] as const)
      await db.query(
        `INSERT INTO cluster_connection (node_id, cluster_id, name, started, max_hops, broker_node_id, load_balancing,
                                         members, connected_to, messages_pending_ack, messages_acknowledged, observed_at)
         VALUES ($1, $2, 'my-cluster', true, $3, $4, 'ON_DEMAND', $5, $6, 2, 40, now())`,
        [
          node,
          cluster.id,
          maxHops,
          brokerId,
          JSON.stringify([member('b1', 1), member('b2', 2), member('b9', 9)]),
          JSON.stringify({ [brokerId === 'b1' ? 'b2' : 'b1']: '10.0.0.1:1' }),
        ],
      );
    for (const [node, messages, consumers] of [
      [n1, 0, 2],
      [n2, 10, 0],
    ] as const)
      await db.query(
        `INSERT INTO queue_snapshot (node_id, cluster_id, observed_at, changed_at, message_count, delivering_count,
                                     messages_added, messages_acknowledged, messages_expired, messages_killed,
                                     consumer_count, paused, durable, temporary, name, address, routing_type,
                                     added_per_second, acknowledged_per_second)
         VALUES ($1, $2, now(), now(), $3, 0, $3, 0, 0, 0, $4, false, true, false, 'orders', 'orders', 'ANYCAST', 1.5, 0.5)`,
        [node, cluster.id, messages, consumers],
      );
    await db.query(
      `INSERT INTO stranded_queue (node_id, cluster_id, queue, address, message_count, consumer_node_ids, reason,
                                   detail, since, observed_at)
       VALUES ($1, $2, 'orders', 'orders', 10, $3, 'redistribution-off', 'redistribution is off for orders', $4, now())`,
      [n2, cluster.id, [n1], since],
    );
    await db.query(
      `INSERT INTO core_bridge (node_id, cluster_id, name, started, connected, queue_name, forwarding_address,
                                messages_acknowledged, messages_pending_ack, observed_at)
       VALUES ($1, $2, 'to-dc2', true, false, 'orders.out', 'orders', 12, 0, now())`,
      [n1, cluster.id],
    );
    await db.query(
      `INSERT INTO broker_connection (node_id, cluster_id, name, started, connected, mirror_queue, mirror_backlog, observed_at)
       VALUES ($1, $2, 'mirror-dc2', true, true, '$ACTIVEMQ_ARTEMIS_MIRROR_mirror-dc2', 3, now())`,
      [n2, cluster.id],
    );
    gateway = await spawnService('gateway', 18495);
    api = await signIn(gateway.url);
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await db?.destroy();
  });

  it('matches the members to the registered nodes and says where they differ', async () => {
    const links = ClusterLinksSchema.parse(await get('/cluster-links'));
    expect(links.connections.map((c) => [c.node, c.maxHops])).toEqual([
      ['n1', 1],
      ['n2', 0],
    ]);
    expect(links.connections[0].members.map((m) => m.registeredAs)).toEqual(['n1', 'n2', null]);
    expect(links.connections[0].connectedTo).toEqual([
      { brokerNodeId: 'b2', address: '10.0.0.1:1', registeredAs: 'n2' },
    ]);
    expect(links.unregisteredMembers).toEqual([
      { brokerNodeId: 'b9', live: '10.0.0.1:9', backup: null, seenBy: ['n1', 'n2'] },
    ]);
    expect(links.missingFromTopology).toEqual([{ node: 'n3', absentFrom: ['n1', 'n2'] }]);
    expect(links.balancesNothing).toEqual([{ node: 'n2', connection: 'my-cluster' }]);
    expect(links.stranded).toEqual([
      expect.objectContaining({
        queue: 'orders',
        node: 'n2',
        messages: 10,
        consumersOn: ['n1'],
        reason: 'redistribution-off',
        since: since.toISOString(),
      }),
    ]);
    expect(links.stranded[0].suggestion).toContain('<redistribution-delay>0</redistribution-delay>');
    expect(links.brokerConnections).toEqual([
      expect.objectContaining({
        node: 'n2',
        name: 'mirror-dc2',
        direction: 'outgoing',
        peerBrokerNodeId: null,
        started: true,
        connected: true,
        federation: null,
        mirror: { queue: '$ACTIVEMQ_ARTEMIS_MIRROR_mirror-dc2', messages: 3, oldestMessageAt: null },
      }),
    ]);
    expect(links.bridges).toEqual([
      expect.objectContaining({
        node: 'n1',
        name: 'to-dc2',
        started: true,
        connected: false,
        messagesAcknowledged: 12,
      }),
    ]);
  });

  it('shows a queue once for the cluster, each node beside the total, and where it is stranded', async () => {
    const page = ClusterQueuePageSchema.parse(await get('/queues/across-nodes?search=orders'));
    expect(page.total).toBe(1);
    const [orders] = page.items;
    expect(orders).toMatchObject({
      name: 'orders',
      messageCount: 10,
      consumerCount: 2,
      addedPerSecond: 3,
      stranded: [{ node: 'n2', messages: 10, reason: 'redistribution-off', since: since.toISOString() }],
    });
    expect(orders.nodes.map((n) => [n.node, n.messageCount, n.consumerCount])).toEqual([
      ['n1', 0, 2],
      ['n2', 10, 0],
    ]);
    // "Without consumers" is the cluster's total: a queue consumed on any node is not one.
    expect(ClusterQueuePageSchema.parse(await get('/queues/across-nodes?consumers=without')).total).toBe(0);
    const past = ClusterQueuePageSchema.parse(await get('/queues/across-nodes?page=3'));
    expect(past).toMatchObject({ items: [], total: 1 });
  });

  it('refuses a query it cannot read, with a JSON error', async () => {
    const response = await api.fetch(
      `${gateway.url}/api/v1/clusters/${cluster.id}/queues/across-nodes?sort=nope`,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: expect.any(String) } });
  });
});
