import {
  brokerExec,
  brokerJolokia,
  depthOf,
  drainQueue,
  fillQueue,
  queueMbean,
  waitFor,
  type BrokerProfile,
} from '@artemis-studio/testing';
import { ClusterStack, nodeOf as node } from './cluster-stack.fixture';

/**
 * The alert rules on the links between the `cluster` profile's two live nodes. The link from node 2
 * to node 1 is cut by stopping node 1's cluster acceptor (the one its members connect to): node 2's
 * bridge then retries, its store-and-forward queue towards node 1 loses its consumer (the bridge)
 * and holds what is routed there, until the acceptor starts again and it drains.
 */
describe('alerts on the links of a two-node cluster', () => {
  const stack = new ClusterStack();
  let cluster: BrokerProfile;
  const rules: Record<string, string> = {};
  const acceptor = (op: 'start()' | 'stop()') =>
    brokerJolokia(node(cluster, 0), {
      type: 'exec',
      mbean: `org.apache.activemq.artemis:broker="${cluster.nodes[0].name}",component=acceptors,name="cluster"`,
      operation: op,
      arguments: [],
    });
  const alertOf = (kind: string, subject: string) => stack.alertOf(rules[kind], subject);

  beforeAll(async () => {
    await stack.start(async () => {
      rules['link-down'] = await stack.addRule('link-down');
      rules['link-backlog'] = await stack.addRule('link-backlog', '*', 2);
      rules['link-node-left'] = await stack.addRule('link-node-left');
    });
    cluster = stack.cluster;
  });

  afterAll(async () => {
    await acceptor('start()').catch(() => undefined);
    await stack.stop();
  });

  it('reads the healthy pair as healthy: every link evaluated, none holding', async () => {
    await waitFor('the link rules evaluated on both connections', async () => {
      const rows: { subject: string; state: string }[] = await stack.db.query(
        `SELECT subject, state FROM alert WHERE rule_id = ANY ($1)`,
        [Object.values(rules)],
      );
      const evaluated: { n: string }[] = await stack.db.query(
        `SELECT count(*) AS n FROM alert_evaluation WHERE cluster_id = $1 AND scope = 'tier-b' AND evaluated_at IS NOT NULL AND error IS NULL`,
        [stack.clusterId],
      );
      // None open: the broker connection may have been down for a tick while node 2 started.
      return evaluated[0].n === '1' && rows.every((r) => r.state === 'resolved');
    });
  });

  it('fires when the link to node 1 is cut and messages wait in it, and resolves once it drains', async () => {
    const [a, b] = [node(cluster, 0), node(cluster, 1)];
    for (const broker of [a, b])
      await brokerExec(broker, 'createQueue(java.lang.String,boolean)', [
        JSON.stringify({ name: 'link.orders', address: 'link.orders', 'routing-type': 'ANYCAST' }),
        true,
      ]);
    await fillQueue(b, 'link.orders', 5);
    const nodeId = (await brokerJolokia(a, {
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${cluster.nodes[0].name}"`,
      attribute: 'NodeID',
    })) as { value: string };
    expect((await acceptor('stop()')).status).toBe(200);
    // Into the store-and-forward queue towards node 1, as the broker routes messages for it.
    const moved = await brokerJolokia(b, {
      type: 'exec',
      mbean: queueMbean(b, 'link.orders'),
      operation: 'moveMessages(int,java.lang.String,java.lang.String,boolean,int)',
      arguments: [100, '', `link.orders${nodeId.value}`, false, 5],
    });
    expect(moved.value).toBe(5);
    const [one, two] = cluster.nodes.map((n) => n.name);
    await waitFor(
      'the link not draining',
      async () => (await alertOf('link-backlog', `${two} → ${one}`))?.[0] === 'firing',
      {
        timeoutMs: 30_000,
      },
    );
    await waitFor(
      'the link down',
      async () => (await alertOf('link-down', `${two}/my-cluster`))?.[0] === 'firing',
      {
        timeoutMs: 30_000,
      },
    );
    expect(await alertOf('link-down', `${two}/my-cluster`)).toEqual(['firing', 1]);
    // Node 2's topology drops node 1 while its bridge retries; node 1's own link to node 2 is up.
    await waitFor(
      'node 1 gone from node 2’s topology',
      async () => (await alertOf('link-node-left', one))?.[0] === 'firing',
    );
    expect(await alertOf('link-down', `${one}/my-cluster`)).toBeNull();
    expect(await alertOf('link-node-left', two)).toBeNull();

    expect((await acceptor('start()')).status).toBe(200);
    await waitFor(
      'all three resolved',
      async () =>
        (await alertOf('link-backlog', `${two} → ${one}`))?.[0] === 'resolved' &&
        (await alertOf('link-down', `${two}/my-cluster`))?.[0] === 'resolved' &&
        (await alertOf('link-node-left', one))?.[0] === 'resolved',
      { timeoutMs: 30_000 },
    );
    await waitFor('the five delivered on node 1', async () => (await depthOf(a, 'link.orders')) === 5);
  });

  it('fires on a core bridge that cannot forward, though the broker calls it started, and resolves once it does', async () => {
    const [a, b] = [node(cluster, 0), node(cluster, 1)];
    const [one] = cluster.nodes.map((n) => n.name);
    const queue = (broker: BrokerProfile, name: string) =>
      brokerExec(broker, 'createQueue(java.lang.String,boolean)', [
        JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST' }),
        true,
      ]);
    // The connector towards node 2 that the cluster profile configures on node 1.
    const connectors = (await brokerJolokia(a, {
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${one}"`,
      attribute: 'ConnectorsAsJSON',
    })) as { value: string };
    const towards = (JSON.parse(connectors.value) as { name: string }[]).find((c) => c.name !== 'artemis')!;
    await queue(a, 'bridge.out');
    // Its forwarding address has no binding on node 2 yet: the bridge retries, started.
    await brokerExec(a, 'createBridge(java.lang.String)', [
      JSON.stringify({
        name: 'to-node2',
        'queue-name': 'bridge.out',
        'forwarding-address': 'bridge.in',
        'static-connectors': [towards.name],
        user: cluster.user,
        password: cluster.password,
        'reconnect-attempts': -1,
        'retry-interval': 500,
      }),
    ]);
    try {
      await waitFor(
        'the bridge down',
        async () => (await alertOf('link-down', `${one}/to-node2`))?.[0] === 'firing',
        {
          timeoutMs: 30_000,
        },
      );
      const stored = async () =>
        (
          await stack.db.query(
            `SELECT connected FROM core_bridge WHERE cluster_id = $1 AND name = 'to-node2'`,
            [stack.clusterId],
          )
        )[0]?.connected as boolean | undefined;
      // Stored by the links part, which the tick tells after the alert rules: not yet, maybe.
      await waitFor('the bridge stored as not connected', async () => (await stored()) === false);
      await queue(b, 'bridge.in');
      await waitFor(
        'the bridge up',
        async () => (await alertOf('link-down', `${one}/to-node2`))?.[0] === 'resolved',
        { timeoutMs: 30_000 },
      );
      await waitFor('the bridge stored as connected', async () => (await stored()) === true);
      await fillQueue(a, 'bridge.out', 3);
      await waitFor('the three forwarded to node 2', async () => (await depthOf(b, 'bridge.in')) === 3);
    } finally {
      await brokerExec(a, 'destroyBridge(java.lang.String)', ['to-node2']).catch(() => undefined);
      await brokerExec(a, 'destroyQueue(java.lang.String,boolean)', ['bridge.out', true]).catch(
        () => undefined,
      );
      await brokerExec(b, 'destroyQueue(java.lang.String,boolean)', ['bridge.in', true]).catch(
        () => undefined,
      );
    }
  });

  it('fires on an AMQP broker connection stopped and on its mirror not draining, and resolves once it is connected again', async () => {
    // The profile's node1 keeps one towards node2 (scripts/artemis/cluster-broker-connection.xml),
    // mirroring addresses starting `mirror.out`.
    const a = node(cluster, 0);
    const one = cluster.nodes[0].name;
    const mirror = `${one} → mirror to-node2`;
    const stored = async () =>
      (
        await stack.db.query(
          `SELECT started, connected, mirror_backlog AS backlog FROM broker_connection
            WHERE cluster_id = $1 AND name = 'to-node2' AND direction = 'outgoing'`,
          [stack.clusterId],
        )
      )[0] as { started: boolean; connected: boolean; backlog: string | null } | undefined;
    await waitFor('the broker connection stored as connected', async () => (await stored())?.connected);
    expect((await stored())?.backlog).toBe('0');
    await brokerExec(a, 'stopBrokerConnection(java.lang.String)', ['to-node2']);
    try {
      await fillQueue(a, 'mirror.out.orders', 4);
      await waitFor(
        'the broker connection down',
        async () => (await alertOf('link-down', `${one}/to-node2`))?.[0] === 'firing',
        { timeoutMs: 30_000 },
      );
      await waitFor('it stored as stopped, four waiting to be mirrored', async () => {
        const row = await stored();
        return row?.started === false && row.backlog === '4';
      });
      await waitFor(
        'the mirror not draining',
        async () => (await alertOf('link-backlog', mirror))?.[0] === 'firing',
        {
          timeoutMs: 30_000,
        },
      );
    } finally {
      await brokerExec(a, 'startBrokerConnection(java.lang.String)', ['to-node2']);
    }
    await waitFor(
      'the broker connection up and its mirror drained',
      async () =>
        (await alertOf('link-down', `${one}/to-node2`))?.[0] === 'resolved' &&
        (await alertOf('link-backlog', mirror))?.[0] === 'resolved',
      { timeoutMs: 30_000 },
    );
    await waitFor('none waiting to be mirrored', async () => (await stored())?.backlog === '0');
    await brokerExec(a, 'destroyQueue(java.lang.String,boolean)', ['mirror.out.orders', true]);
  });

  it('counts what a federation over the connection moves, at both of its ends', async () => {
    // Node1's connection federates `fed.#` queues: a consumer on node1 pulls what waits on node2.
    const [a, b] = [node(cluster, 0), node(cluster, 1)];
    const totals = async (direction: 'outgoing' | 'incoming') =>
      (
        await stack.db.query(
          `SELECT federation_sent AS sent, federation_received AS received FROM broker_connection
            WHERE cluster_id = $1 AND name = 'to-node2' AND direction = $2`,
          [stack.clusterId, direction],
        )
      )[0] as { sent: string; received: string } | undefined;
    // Totals since the brokers started: what this test moves is the difference.
    await waitFor(
      'both ends stored',
      async () => !!(await totals('outgoing')) && !!(await totals('incoming')),
    );
    const [ownBefore, peersBefore] = [(await totals('outgoing'))!, (await totals('incoming'))!];
    await fillQueue(b, 'fed.orders', 6);
    expect(await drainQueue(a, 'fed.orders')).toHaveLength(6);
    await waitFor('node1 storing six received, node2 six sent', async () => {
      const [own, peers] = [await totals('outgoing'), await totals('incoming')];
      return (
        Number(own?.received) - Number(ownBefore.received) === 6 &&
        Number(peers?.sent) - Number(peersBefore.sent) === 6
      );
    });
  });
});
