import type { SignalPublisher } from '@artemis-studio/platform';
import type { ClusterTarget } from '@artemis-studio/db';
import { OwnedCluster } from '../cluster-parts/owned-cluster';
import type { JolokiaClient } from '../jolokia/jolokia-client';
import type { NodeTierB } from '../polling/tier-b';
import { observedQueue } from '../queues/queue-observation.fixture';
import type { ClusterConnectionReading } from '../topology/cluster-connection';
import { ClusterLinksPart } from './cluster-links.part';
import type { ClusterLinksRepository } from './cluster-links.repository';

const target = {
  id: 'c1',
  name: 'prod',
  nodes: [{ id: 'n1', name: 'node1', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia', amqpUrl: null }],
} as unknown as ClusterTarget;

const link: ClusterConnectionReading = {
  name: 'my-cluster',
  started: true,
  maxHops: 1,
  brokerNodeId: 'b1',
  loadBalancing: 'ON_DEMAND',
  members: [],
  connectedTo: {},
  messagesPendingAcknowledgement: 0,
  messagesAcknowledged: 0,
};

const read = (
  clusterConnections: NodeTierB['clusterConnections'],
  bridges: NodeTierB['bridges'] = [],
): NodeTierB[] => [
  {
    nodeId: 'n1',
    queues: [],
    unread: [],
    addresses: null,
    clusterConnections,
    bridges,
    brokerConnections: [],
  },
];

const signalled: string[] = [];
const signals = {
  signal: (_clusterId: string, topic: string) => void signalled.push(topic),
} as unknown as SignalPublisher;

describe('ClusterLinksPart', () => {
  it('writes a tick that stores nothing once, and not again until something is stored', async () => {
    const record = jest.fn(async () => undefined);
    const part = new ClusterLinksPart(
      {} as JolokiaClient,
      { record } as unknown as ClusterLinksRepository,
      signals,
    );
    part.start(new OwnedCluster(target, new AbortController().signal));
    const tick = (connections: NodeTierB['clusterConnections']) =>
      part.afterQueues(target, new Date(), read(connections));

    await tick([]); // the first tick clears what an earlier owner may have left
    await tick([]);
    expect(record).toHaveBeenCalledTimes(1);

    await tick([link]);
    await tick([link]); // links are rewritten each tick: their figures move
    await tick([]); // the link went: its rows must go
    await tick([]);
    expect(record).toHaveBeenCalledTimes(4);

    // A node whose connections went unread keeps its rows: not "nothing", so it is written.
    await tick(null);
    expect(record).toHaveBeenCalledTimes(5);
  });

  it('stores a core bridge, connected only while its queue has a consumer', async () => {
    signalled.length = 0;
    const record = jest.fn(async () => undefined);
    const part = new ClusterLinksPart(
      {} as JolokiaClient,
      { record } as unknown as ClusterLinksRepository,
      signals,
    );
    part.start(new OwnedCluster(target, new AbortController().signal));
    const bridge = {
      name: 'to-dc2',
      started: true,
      queueName: 'orders.out',
      forwardingAddress: 'orders',
      messagesAcknowledged: 4,
      messagesPendingAcknowledgement: 0,
    };
    const [tick] = read([], [bridge]);
    await part.afterQueues(target, new Date(), [
      { ...tick, queues: [observedQueue('orders.out', { consumerCount: 0 })] },
    ]);
    await part.afterQueues(target, new Date(), [
      { ...tick, queues: [observedQueue('orders.out', { consumerCount: 1 })] },
    ]);
    const stored = record.mock.calls.map(
      (c) => (c as unknown[])[2] as { bridges: { connected: boolean }[] }[],
    );
    expect(stored.map((nodes) => nodes[0].bridges[0].connected)).toEqual([false, true]);
    // The bridge connecting changes no queue figure: the console is told by a signal of its own.
    expect(signalled).toEqual(['queues']);
  });
});
