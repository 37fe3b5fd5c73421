import type { NodeObservation } from './node-observation';
import { unreachableNode } from './node-observation';
import { UnseenLiveNodes } from './unseen-live-nodes';

const at = new Date('2026-12-06T05:30:00Z');
const nodes = [
  { id: 'a', name: 'node1', jolokiaUrl: 'http://a/console/jolokia', amqpUrl: null },
  { id: 'b', name: 'node2', jolokiaUrl: 'http://b/console/jolokia', amqpUrl: null },
];
const answering = (nodeId: string, brokerNodeId: string, role: 'live' | 'backup'): NodeObservation =>
  ({
    ...unreachableNode({ nodeId, name: '' }, '', at, at),
    reachable: true,
    role,
    lastRole: role,
    brokerNodeId,
    reason: null,
  }) as NodeObservation;
const silent = (nodeId: string, lastRole: 'live' | 'backup' | null): NodeObservation => ({
  ...unreachableNode({ nodeId, name: '' }, 'ECONNREFUSED', at, new Date(at.getTime() - 20_000)),
  lastRole,
});

describe('the live nodes Studio cannot see', () => {
  it('names a cluster member last seen live that no longer answers, since it last did', () => {
    const unseen = new UnseenLiveNodes();
    unseen.of([answering('a', 'id-1', 'live'), answering('b', 'id-2', 'live')], [], nodes);
    expect(unseen.of([silent('a', 'live'), answering('b', 'id-2', 'live')], [], nodes)).toEqual([
      { name: 'node1', since: '2026-12-06T05:29:40.000Z' },
    ]);
  });

  it('leaves out a primary whose backup took over (the same broker id, live), and a silent backup', () => {
    const unseen = new UnseenLiveNodes();
    unseen.of([answering('a', 'id-1', 'live'), answering('b', 'id-1', 'backup')], [], nodes);
    expect(unseen.of([silent('a', 'live'), answering('b', 'id-1', 'live')], [], nodes)).toEqual([]);
    expect(unseen.of([answering('a', 'id-1', 'live'), silent('b', 'backup')], [], nodes)).toEqual([]);
  });

  it('reads an id an earlier owner stored, and counts a node whose id it never read as unseen', () => {
    const taken = [silent('a', 'live'), answering('b', 'id-1', 'live')];
    expect(new UnseenLiveNodes().of(taken, [answering('a', 'id-1', 'live')], nodes)).toEqual([]);
    expect(new UnseenLiveNodes().of(taken, [], nodes)).toEqual([
      { name: 'node1', since: '2026-12-06T05:29:40.000Z' },
    ]);
  });
});
