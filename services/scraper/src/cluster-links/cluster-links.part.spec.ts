import type { ClusterTarget } from '@artemis-studio/db';
import { OwnedCluster } from '../cluster-parts/owned-cluster';
import type { JolokiaClient } from '../jolokia/jolokia-client';
import type { NodeTierB } from '../polling/tier-b';
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

const read = (clusterConnections: NodeTierB['clusterConnections']): NodeTierB[] => [
  { nodeId: 'n1', queues: [], unread: [], addresses: null, clusterConnections },
];

describe('ClusterLinksPart', () => {
  it('writes a tick that stores nothing once, and not again until something is stored', async () => {
    const record = jest.fn(async () => undefined);
    const part = new ClusterLinksPart({} as JolokiaClient, { record } as unknown as ClusterLinksRepository);
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
});
