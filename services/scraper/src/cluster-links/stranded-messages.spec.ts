import { observedQueue } from '../queues/queue-observation.fixture';
import type { NodeTierB } from '../polling/tier-b';
import type { ClusterConnectionReading } from '../topology/cluster-connection';
import { redistributionDelayOf } from './redistribution';
import { explain, strandedCandidates, type ClusterLinks } from './stranded-messages';

const queue = (name: string, messageCount: number, consumerCount: number) =>
  observedQueue(name, { messageCount, consumerCount });
const node = (nodeId: string, queues: NodeTierB['queues']): NodeTierB => ({
  nodeId,
  queues,
  unread: [],
  addresses: null,
});
const connection = (brokerNodeId: string, maxHops = 1): ClusterConnectionReading => ({
  name: 'my-cluster',
  started: true,
  maxHops,
  brokerNodeId,
  loadBalancing: 'ON_DEMAND',
  members: [],
  connectedTo: {},
  messagesPendingAcknowledgement: 0,
  messagesAcknowledged: 0,
});

describe('stranded messages', () => {
  const reads = [
    node('n1', [queue('orders', 0, 1), queue('audit', 4, 0)]),
    node('n2', [queue('orders', 10, 0), queue('audit', 0, 0), queue('billing', 3, 2)]),
  ];

  it('names each node holding messages of a queue without consumers while another node has its consumers', () => {
    expect(strandedCandidates(reads)).toEqual([
      expect.objectContaining({ queue: 'orders', nodeId: 'n2', messages: 10, consumerNodeIds: ['n1'] }),
    ]);
  });

  it('leaves out the broker’s own queues and temporary ones', () => {
    const sf = {
      ...queue('$.artemis.internal.sf.my-cluster.b', 5, 0),
      address: '$.artemis.internal.sf.my-cluster.b',
    };
    const temp = { ...queue('reply', 5, 0), temporary: true };
    expect(
      strandedCandidates([
        node('n1', [sf, temp, { ...sf, consumerCount: 1, messageCount: 0 }, { ...temp, consumerCount: 1 }]),
      ]),
    ).toEqual([]);
  });

  describe('says why they stay', () => {
    const [candidate] = strandedCandidates(reads);
    const links = (
      connections: Record<string, ClusterConnectionReading[] | null>,
      nodes = reads,
    ): ClusterLinks => ({
      connections: new Map(Object.entries(connections)),
      reads: nodes,
      nodeName: (id) => id.toUpperCase(),
    });
    const clustered = { n1: [connection('b1')], n2: [connection('b2')] };

    it('redistribution off for the address: the broker’s default', () => {
      const why = explain(candidate, links(clustered), -1);
      expect(why.reason).toBe('redistribution-off');
      expect(why.detail).toContain('redistribution is off for orders');
    });

    it('max-hops 0 before anything else the address says', () => {
      expect(explain(candidate, links({ ...clustered, n2: [connection('b2', 0)] }), 0).reason).toBe(
        'no-shared-bindings',
      );
    });

    it('a node in no cluster connection', () => {
      expect(explain(candidate, links({ ...clustered, n2: [] }), 0).reason).toBe('not-clustered');
    });

    it('a store-and-forward link towards the consumers’ node that holds messages', () => {
      const sfName = '$.artemis.internal.sf.my-cluster.b1';
      const withLink = [
        reads[0],
        node('n2', [...reads[1].queues, { ...queue(sfName, 7, 1), address: sfName }]),
      ];
      const why = explain(candidate, links(clustered, withLink), 0);
      expect(why).toMatchObject({ reason: 'link-not-draining' });
      expect(why.detail).toContain('towards N1 holds 7 message(s)');
    });

    it('a delay still running, and unknown when a read is missing', () => {
      expect(explain(candidate, links(clustered), 60_000).reason).toBe('redistribution-delayed');
      expect(explain(candidate, links(clustered), undefined).reason).toBe('unknown');
      expect(explain(candidate, links({ ...clustered, n2: null }), -1).reason).toBe('unknown');
    });
  });

  it('reads the redistribution delay from the broker’s address settings, -1 when it leaves it out', () => {
    const settings = (value: object) => ({ status: 200, value: JSON.stringify(value) });
    expect(redistributionDelayOf(settings({ maxSizeBytes: -1 }))).toBe(-1);
    expect(redistributionDelayOf(settings({ redistributionDelay: 0 }))).toBe(0);
    expect(redistributionDelayOf({ status: 404, error: 'no broker' })).toBeUndefined();
    expect(redistributionDelayOf({ status: 200, value: 'not json' })).toBeUndefined();
  });
});
