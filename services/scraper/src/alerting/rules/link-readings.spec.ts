import type { NodeTierB } from '../../polling/tier-b';
import type { QueueObservation } from '../../queues/queue-observation';
import { observedQueue } from '../../queues/queue-observation.fixture';
import type { ClusterConnectionReading } from '../../topology/cluster-connection';
import type { BrokerConnectionReading } from '../../topology/broker-connection';
import type { CoreBridgeReading } from '../../topology/core-bridge';
import { readLinks } from './link-readings';

const ID = { one: 'aaaa1111-0000', two: 'bbbb2222-0000', three: 'cccc3333-0000' };
const member = (id: string) => ({ brokerNodeId: id, live: `${id}:61616`, backup: null });

/** A node's connection: its topology lists `members`, and it is connected to `connected`. */
function connection(
  own: string,
  members: string[],
  connected: string[],
  started = true,
): ClusterConnectionReading {
  return {
    name: 'my-cluster',
    started,
    maxHops: 1,
    brokerNodeId: own,
    loadBalancing: 'ON_DEMAND',
    members: [own, ...members].map(member),
    connectedTo: Object.fromEntries(connected.map((id) => [id, 'host:port'])),
    messagesPendingAcknowledgement: 0,
    messagesAcknowledged: 0,
  };
}

const sfQueue = (to: string, messageCount: number, firstMessageAt: Date | null): QueueObservation =>
  observedQueue(`$.artemis.internal.sf.my-cluster.${to}`, {
    routingType: 'MULTICAST',
    messageCount,
    consumerCount: 1,
    firstMessageAt,
  });

const node = (
  nodeId: string,
  connections: ClusterConnectionReading[] | null,
  queues: QueueObservation[] = [],
): NodeTierB => ({ nodeId, queues, unread: [], addresses: null, clusterConnections: connections });

const outgoing: BrokerConnectionReading = {
  name: '',
  direction: 'outgoing',
  started: true,
  connected: true,
  peerBrokerNodeId: null,
  federation: null,
};
const names: Record<string, string> = { n1: 'node1', n2: 'node2', n3: 'node3' };
const nameOf = (id: string) => names[id] ?? id;
const now = new Date('2026-12-06T10:00:00Z');
const rule = (kind: 'link-down' | 'link-backlog' | 'link-node-left', threshold: number | null = null) => ({
  kind,
  subjects: '*',
  threshold,
});

describe('the link rules over one tier-B tick', () => {
  const healthy = [
    node('n1', [connection(ID.one, [ID.two], [ID.two])]),
    node('n2', [connection(ID.two, [ID.one], [ID.one])]),
  ];

  it('read a healthy pair as healthy, one subject per connection and per node', () => {
    expect(readLinks(rule('link-down'), healthy, nameOf, now, new Map())).toEqual([
      { subject: 'node1/my-cluster', holds: false, value: 0 },
      { subject: 'node2/my-cluster', holds: false, value: 0 },
    ]);
    expect(readLinks(rule('link-node-left'), healthy, nameOf, now, new Map())?.map((r) => r.holds)).toEqual([
      false,
      false,
    ]);
  });

  it('say a stopped connection is down, and the node it belongs to has left the other’s topology', () => {
    const stopped = [
      node('n1', [connection(ID.one, [ID.two], [], false)]),
      node('n2', [connection(ID.two, [], [])]),
    ];
    expect(readLinks(rule('link-down'), stopped, nameOf, now, new Map())).toEqual([
      { subject: 'node1/my-cluster', holds: true, value: 1 },
      { subject: 'node2/my-cluster', holds: false, value: 0 },
    ]);
    expect(readLinks(rule('link-node-left'), stopped, nameOf, now, new Map())).toEqual([
      { subject: 'node1', holds: true, value: 1 },
      { subject: 'node2', holds: false, value: 0 },
    ]);
  });

  it('say a started connection missing a member of its topology is down, by how many', () => {
    const partial = [node('n1', [connection(ID.one, [ID.two, ID.three], [ID.two])])];
    expect(readLinks(rule('link-down'), partial, nameOf, now, new Map())).toEqual([
      { subject: 'node1/my-cluster', holds: true, value: 1 },
    ]);
  });

  it('say a link cut at the member’s end is down, and that member gone from the topology', () => {
    // As 2.40 shows it with node 1's cluster acceptor stopped: node 2's topology drops node 1, its
    // `Nodes` keeps it while the bridge retries, and the bridge no longer consumes its queue.
    const cut = [
      node('n1', [connection(ID.one, [ID.two], [ID.two])]),
      node('n2', [connection(ID.two, [], [ID.one])], [{ ...sfQueue(ID.one, 5, now), consumerCount: 0 }]),
    ];
    expect(readLinks(rule('link-down'), cut, nameOf, now, new Map())).toEqual([
      { subject: 'node1/my-cluster', holds: false, value: 0 },
      { subject: 'node2/my-cluster', holds: true, value: 1 },
    ]);
    expect(readLinks(rule('link-node-left'), cut, nameOf, now, new Map())).toEqual([
      { subject: 'node1', holds: true, value: 1 },
      { subject: 'node2', holds: false, value: 0 },
    ]);
  });

  it('say a store-and-forward queue does not drain once it has delivered nothing for the threshold', () => {
    const stalls = new Map();
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    const tick = (acknowledged: number, messageCount: number, seconds: number) =>
      readLinks(
        rule('link-backlog', 120),
        [
          node('n1', [connection(ID.one, [ID.two], [ID.two])]),
          node(
            'n2',
            [connection(ID.two, [ID.one], [ID.one])],
            [{ ...sfQueue(ID.one, messageCount, null), messagesAcknowledged: acknowledged }],
          ),
        ],
        nameOf,
        at(seconds),
        stalls,
      );
    // No time on the messages (an AMQP sender that sets none): what counts is that none leaves.
    expect(tick(7, 40, 0)).toEqual([{ subject: 'node2 → node1', holds: false, value: 0 }]);
    expect(tick(7, 45, 300)).toEqual([{ subject: 'node2 → node1', holds: true, value: 300 }]);
    // One acknowledged: it drains, slowly; the clock starts again.
    expect(tick(8, 45, 310)).toEqual([{ subject: 'node2 → node1', holds: false, value: 0 }]);
    expect(tick(8, 0, 320)).toEqual([{ subject: 'node2 → node1', holds: false, value: 0 }]);
    expect(stalls.size).toBe(0);
  });

  it('name a member Studio does not poll by the first block of its broker id', () => {
    const alone = [node('n2', [connection(ID.two, [ID.one], [ID.one])], [sfQueue(ID.one, 0, null)])];
    expect(readLinks(rule('link-backlog', 120), alone, nameOf, now, new Map())).toEqual([
      { subject: 'node2 → aaaa1111', holds: false, value: 0 },
    ]);
  });

  it('know nothing when a node’s cluster connections went unread this tick', () => {
    expect(readLinks(rule('link-down'), [...healthy, node('n3', null)], nameOf, now, new Map())).toBeNull();
  });

  it('say a core bridge is down when stopped, or started with no consumer on its queue (it retries)', () => {
    const bridge = (started: boolean): CoreBridgeReading => ({
      name: 'to-dc2',
      started,
      queueName: 'orders.out',
      forwardingAddress: 'orders',
      messagesAcknowledged: 0,
      messagesPendingAcknowledgement: 0,
    });
    const bridged = (started: boolean, consumers: number): NodeTierB => ({
      ...healthy[0],
      queues: [observedQueue('orders.out', { consumerCount: consumers })],
      bridges: [bridge(started)],
    });
    const down = (n: NodeTierB) =>
      readLinks({ ...rule('link-down'), subjects: 'node1/to-dc2' }, [n, healthy[1]], nameOf, now, new Map());
    expect(down(bridged(true, 1))).toEqual([{ subject: 'node1/to-dc2', holds: false, value: 0 }]);
    expect(down(bridged(true, 0))).toEqual([{ subject: 'node1/to-dc2', holds: true, value: 1 }]);
    expect(down(bridged(false, 1))).toEqual([{ subject: 'node1/to-dc2', holds: true, value: 1 }]);
    expect(down({ ...bridged(true, 1), bridges: null })).toBeNull();
  });

  it('say a broker connection is down when stopped or not connected (it retries), and up when connected', () => {
    const linked = (started: boolean, connected: boolean): NodeTierB => ({
      ...healthy[0],
      brokerConnections: [
        { ...outgoing, name: 'mirror-dc2', started, connected },
        // A peer's connection attached to node1: its peer judges it, not node1.
        { ...outgoing, name: 'from-dc3', direction: 'incoming', peerBrokerNodeId: ID.three },
      ],
    });
    const down = (n: NodeTierB) =>
      readLinks({ ...rule('link-down'), subjects: '*/mirror-dc2' }, [n, healthy[1]], nameOf, now, new Map());
    expect(down(linked(true, true))).toEqual([{ subject: 'node1/mirror-dc2', holds: false, value: 0 }]);
    expect(down(linked(true, false))).toEqual([{ subject: 'node1/mirror-dc2', holds: true, value: 1 }]);
    expect(down(linked(false, false))).toEqual([{ subject: 'node1/mirror-dc2', holds: true, value: 1 }]);
    expect(down({ ...linked(true, true), brokerConnections: null })).toBeNull();
    expect(
      readLinks(
        { ...rule('link-down'), subjects: '*/from-dc3' },
        [linked(true, true)],
        nameOf,
        now,
        new Map(),
      ),
    ).toEqual([]);
  });

  it('say a mirror does not drain once its queue has sent nothing for the threshold', () => {
    const stalls = new Map();
    const mirrorQueue = (messageCount: number, acknowledged: number): QueueObservation => ({
      ...sfQueue(ID.two, messageCount, null),
      name: '$ACTIVEMQ_ARTEMIS_MIRROR_dc2',
      address: '$ACTIVEMQ_ARTEMIS_MIRROR_dc2',
      messagesAcknowledged: acknowledged,
    });
    const tick = (messageCount: number, acknowledged: number, seconds: number) =>
      readLinks(
        { ...rule('link-backlog', 60), subjects: '* → mirror *' },
        [node('n1', [], [mirrorQueue(messageCount, acknowledged)])],
        nameOf,
        new Date(now.getTime() + seconds * 1000),
        stalls,
      );
    expect(tick(5, 0, 0)).toEqual([{ subject: 'node1 → mirror dc2', holds: false, value: 0 }]);
    expect(tick(9, 0, 90)).toEqual([{ subject: 'node1 → mirror dc2', holds: true, value: 90 }]);
    expect(tick(0, 9, 100)).toEqual([{ subject: 'node1 → mirror dc2', holds: false, value: 0 }]);
  });

  it('keep to the rule’s pattern', () => {
    expect(readLinks({ ...rule('link-down'), subjects: 'node2*' }, healthy, nameOf, now, new Map())).toEqual([
      { subject: 'node2/my-cluster', holds: false, value: 0 },
    ]);
  });
});
