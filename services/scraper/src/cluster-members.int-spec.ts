import { randomUUID } from 'node:crypto';
import { ownerRpcs, StartMessageJobRequestSchema } from '@artemis-studio/contracts';
import {
  brokerExec,
  depthOf,
  fillQueue,
  openAmqpClient,
  testBus,
  waitFor,
  type BrokerProfile,
} from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import { ClusterStack, nodeOf as node } from './cluster-stack.fixture';
import { TICK_MS } from './scraper-stack.fixture';

/** A `stranded_queue` row as the tests read it. */
interface Stranded {
  node_id: string;
  message_count: string;
  consumer_node_ids: string[];
  reason: string;
  detail: string;
  since: Date;
}

describe('a symmetric cluster of two live nodes', () => {
  const stack = new ClusterStack();
  let cluster: BrokerProfile;
  let db: DataSource;
  let clusterId: string;
  let nodeIds: string[];
  let strandedRule: string;
  /** The stranded rule's alert on held.orders as last evaluated: [state, value]. */
  const strandedAlert = () => stack.alertOf(strandedRule);
  const closers: (() => Promise<unknown>)[] = [];

  /** What Studio stored of a queue on each node, as [messages, consumers], node 1 first. */
  const perNode = async (queue: string): Promise<([number, number] | null)[]> => {
    const rows: { node_id: string; message_count: string; consumer_count: number }[] = await db.query(
      `SELECT node_id, message_count, consumer_count FROM queue_snapshot WHERE cluster_id = $1 AND name = $2`,
      [clusterId, queue],
    );
    return nodeIds.map((id) => {
      const row = rows.find((r) => r.node_id === id);
      return row ? [Number(row.message_count), row.consumer_count] : null;
    });
  };

  /** The queue on both nodes, ten messages sent to node 2, then a consumer (given no credit) on node 1. */
  const strandable = async (queue: string): Promise<void> => {
    for (const i of [0, 1])
      await brokerExec(node(cluster, i), 'createQueue(java.lang.String,boolean)', [
        JSON.stringify({ name: queue, address: queue, 'routing-type': 'ANYCAST' }),
        true,
      ]);
    await fillQueue(node(cluster, 1), queue, 10);
    const client = await openAmqpClient(cluster.nodes[0].amqpUrl, cluster.user, cluster.password);
    closers.push(() => client.close());
    // No credit: the consumer holds nothing, so where the messages wait stays visible.
    await client.createReceiver({ source: { address: queue, capabilities: ['queue'] }, credit_window: 0 });
  };

  beforeAll(async () => {
    await stack.start(async () => {
      strandedRule = await stack.addRule('queue-stranded', 'held.orders');
    });
    ({ cluster, db, clusterId, nodeIds } = stack);
  });

  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
    await stack.stop();
  });

  it('polls both members as live nodes of one cluster', async () => {
    await waitFor('both nodes observed live', async () => {
      const rows: { role: string }[] = await db.query(
        `SELECT role FROM node_state WHERE cluster_id = $1 AND reachable`,
        [clusterId],
      );
      return rows.length === 2 && rows.every((r) => r.role === 'live');
    });
  });

  it('shows messages left on the node without consumers while the consumer is on the other (redistribution off)', async () => {
    await strandable('held.orders');
    await waitFor('node 1 consumer and node 2 messages stored', async () => {
      const [one, two] = await perNode('held.orders');
      return one?.[1] === 1 && two?.[0] === 10;
    });
    // They stay: three more ticks change nothing on either node.
    await new Promise((resolve) => setTimeout(resolve, 3 * TICK_MS));
    expect(await perNode('held.orders')).toEqual([
      [0, 1],
      [10, 0],
    ]);
  });

  it('names them stranded on node 2, the consumer on node 1, because the address does not redistribute', async () => {
    const rows = await waitFor('held.orders stranded', async () => {
      const found: Stranded[] = await db.query(
        `SELECT node_id, message_count, consumer_node_ids, reason, detail, since FROM stranded_queue
          WHERE cluster_id = $1 AND queue = 'held.orders'`,
        [clusterId],
      );
      return found.length > 0 ? found : undefined;
    });
    expect(rows).toEqual([
      expect.objectContaining({
        node_id: nodeIds[1],
        message_count: '10',
        consumer_node_ids: [nodeIds[0]],
        reason: 'redistribution-off',
      }),
    ]);
    expect(rows[0].detail).toContain('redistribution is off for held.orders');
    // Still stranded a tick later: since stays when it was first seen.
    await new Promise((resolve) => setTimeout(resolve, 2 * TICK_MS));
    const [again]: Stranded[] = await db.query(
      `SELECT since FROM stranded_queue WHERE cluster_id = $1 AND queue = 'held.orders'`,
      [clusterId],
    );
    expect(again.since).toEqual(rows[0].since);
    // The rule on them fires, with how many.
    await waitFor('the stranded rule firing', async () => (await strandedAlert())?.[0] === 'firing');
    expect(await strandedAlert()).toEqual(['firing', 10]);
  });

  it('resolves the alert and forgets them once node 2 has a consumer of its own', async () => {
    const client = await openAmqpClient(cluster.nodes[1].amqpUrl, cluster.user, cluster.password);
    closers.push(() => client.close());
    await client.createReceiver({
      source: { address: 'held.orders', capabilities: ['queue'] },
      credit_window: 0,
    });
    await waitFor('the stranded rule resolved', async () => (await strandedAlert())?.[0] === 'resolved');
    // The list is written by another observer of the same tick, which may come after the alerting's.
    await waitFor('the queue gone from the stranded list', async () => {
      const left: unknown[] = await db.query(
        `SELECT 1 FROM stranded_queue WHERE cluster_id = $1 AND queue = 'held.orders'`,
        [clusterId],
      );
      return left.length === 0;
    });
  });

  it('moves stranded messages to the node with consumers: counted first, then the broker agrees with the job', async () => {
    await strandable('stranded.payments');
    await waitFor('stranded.payments stranded on node 2', async () => {
      const found: Stranded[] = await db.query(
        `SELECT node_id FROM stranded_queue WHERE cluster_id = $1 AND queue = 'stranded.payments'`,
        [clusterId],
      );
      return found[0]?.node_id === nodeIds[1];
    });
    const [from, to] = [cluster.nodes[1].name, cluster.nodes[0].name];
    const bus = testBus('cluster-members-test');
    closers.push(() => bus.close());
    const ask = { key: clusterId, timeoutMs: 10_000 };
    // The dry run: the broker's count on the holding node only.
    const impact = await bus.request(
      ownerRpcs.messageJobImpact,
      { clusterId, queue: 'stranded.payments', kind: 'move', node: from },
      ask,
    );
    expect(impact.messages).toEqual({ count: 10, atLeast: false });
    expect(impact.nodes.map((n) => n.node)).toEqual([from]);
    const job = await bus.request(
      ownerRpcs.messageJobStart,
      {
        clusterId,
        jobId: randomUUID(),
        queue: 'stranded.payments',
        job: StartMessageJobRequestSchema.parse({ kind: 'move', node: from, toNode: to, batchSize: 4 }),
        requestedBy: 'cluster-members test',
      },
      ask,
    );
    expect(job).toMatchObject({
      target: 'stranded.payments',
      toNode: to,
      planned: { count: 10, atLeast: false },
    });
    const done = await waitFor('the job done', async () => {
      const [row]: { status: string; nodes: unknown[] }[] = await db.query(
        `SELECT status, nodes FROM message_job WHERE id = $1`,
        [job.id],
      );
      return row?.status === 'done' ? row : undefined;
    });
    expect(done.nodes).toEqual([
      expect.objectContaining({ node: from, processed: 10, batches: 3, error: null }),
    ]);
    // The broker's own counts: all ten on node 1 (carried by the store-and-forward link), none on node 2.
    await waitFor('the ten on node 1 and none on node 2', async () => {
      const depths = [
        await depthOf(node(cluster, 0), 'stranded.payments'),
        await depthOf(node(cluster, 1), 'stranded.payments'),
      ];
      return depths[0] === 10 && depths[1] === 0;
    });
    await waitFor('nothing of stranded.payments stranded', async () => {
      const left: unknown[] = await db.query(
        `SELECT 1 FROM stranded_queue WHERE cluster_id = $1 AND queue = 'stranded.payments'`,
        [clusterId],
      );
      return left.length === 0;
    });
  });

  it('stores each node’s cluster connection: started, max-hops 1, both members in its topology', async () => {
    const rows: {
      node_id: string;
      started: boolean;
      max_hops: number;
      broker_node_id: string;
      members: { brokerNodeId: string; live: string }[];
    }[] = await db.query(
      `SELECT node_id, started, max_hops, broker_node_id, members FROM cluster_connection WHERE cluster_id = $1`,
      [clusterId],
    );
    expect(rows.map((r) => [r.node_id, r.started, r.max_hops]).sort()).toEqual(
      nodeIds.map((id) => [id, true, 1]).sort(),
    );
    const brokerIds = rows.map((r) => r.broker_node_id).sort();
    for (const row of rows) expect(row.members.map((m) => m.brokerNodeId).sort()).toEqual(brokerIds);
    // The members' live connectors are the cluster acceptors scripts/artemis.sh gives the nodes.
    expect(rows.flatMap((r) => r.members.map((m) => m.live)).sort()).toEqual([
      '127.0.0.1:63116',
      '127.0.0.1:63116',
      '127.0.0.1:63117',
      '127.0.0.1:63117',
    ]);
  });

  it('shows them follow the consumer to the other node where the address redistributes (redistribution-delay 0)', async () => {
    await strandable('redistributed.orders');
    await waitFor('the messages moved to node 1, where the consumer is', async () => {
      const [one, two] = await perNode('redistributed.orders');
      return one?.[0] === 10 && one?.[1] === 1 && two?.[0] === 0;
    });
    // A tick after they moved, nothing of theirs is stranded.
    await new Promise((resolve) => setTimeout(resolve, 2 * TICK_MS));
    const stranded: unknown[] = await db.query(
      `SELECT 1 FROM stranded_queue WHERE cluster_id = $1 AND queue = 'redistributed.orders'`,
      [clusterId],
    );
    expect(stranded).toEqual([]);
  });
});
