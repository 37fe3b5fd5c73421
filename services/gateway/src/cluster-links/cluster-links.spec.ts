import { clusterLinksOf, type ConnectionRecord, type RegisteredNode } from './cluster-links';

const live = (name: string, brokerNodeId: string | null): RegisteredNode => ({
  name,
  role: 'live',
  reachable: true,
  brokerNodeId,
});
const connection = (
  node: string,
  brokerNodeId: string,
  members: string[],
  maxHops = 1,
): ConnectionRecord => ({
  node,
  name: 'my-cluster',
  started: true,
  maxHops,
  brokerNodeId,
  loadBalancing: 'ON_DEMAND',
  members: members.map((id) => ({ brokerNodeId: id, live: `${id}:61616`, backup: null })),
  connectedTo: {},
  messagesPendingAcknowledgement: 0,
  messagesAcknowledged: 0,
  observedAt: new Date(0),
});

describe('the cluster as its brokers see it, beside the registered nodes', () => {
  it('reads a live node and its backup as one member (they share the broker node id)', () => {
    const links = clusterLinksOf(
      [live('a', 'b1'), { ...live('a-backup', 'b1'), role: 'backup' }, live('b', 'b2')],
      [connection('a', 'b1', ['b1', 'b2']), connection('b', 'b2', ['b1', 'b2'])],
      [],
    );
    expect(links.connections[0].members.map((m) => m.registeredAs)).toEqual(['a, a-backup', 'b']);
    expect(links.unregisteredMembers).toEqual([]);
    expect(links.missingFromTopology).toEqual([]);
    expect(links.balancesNothing).toEqual([]);
  });

  it('says nothing is missing on a pair with no cluster connection at all', () => {
    const links = clusterLinksOf(
      [live('primary', 'b1'), { ...live('backup', 'b1'), role: 'backup' }],
      [],
      [],
    );
    expect(links).toMatchObject({ connections: [], missingFromTopology: [], unregisteredMembers: [] });
  });

  it('does not count an unreachable node, or one never read, as missing from the topology', () => {
    const links = clusterLinksOf(
      [live('a', 'b1'), { ...live('b', 'b2'), reachable: false }, live('c', null)],
      [connection('a', 'b1', ['b1'])],
      [],
    );
    expect(links.missingFromTopology).toEqual([]);
  });
});
