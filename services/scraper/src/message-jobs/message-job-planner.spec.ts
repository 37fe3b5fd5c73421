import { RpcError } from '@artemis-studio/bus';
import { OWNER_FAILURES, StartMessageJobRequestSchema } from '@artemis-studio/contracts';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { BrokerLanes } from '../jolokia/broker-lanes';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { MessageJobPlanner } from './message-job-planner';

const node = (name: string) => ({ id: name, name, jolokiaUrl: `http://${name}`, amqpUrl: null });
const cluster: ClusterNodes = {
  target: { id: 'c' },
  liveNodes: () => [node('one'), node('two')],
  brokerName: (id) => id,
  amqpEndpoint: () => null,
  jolokiaTarget: (n) => ({ nodeKey: n.id, jolokiaUrl: n.jolokiaUrl, origin: 'http://x' }),
};

/**
 * Two brokers holding `orders`, 5 messages on `two`; `two`'s address lists the remote bindings
 * given (the broker's `RemoteQueueNames`), its link towards `one` has `bridges` consumers, and
 * `one`'s node id is `id-one`.
 */
function twoBrokers(remoteQueueNames: string[], bridges = 1) {
  const broker = (r: JolokiaRequest) => /broker="([^"]+)"/.exec(r.mbean)?.[1] ?? '';
  const answer = (r: JolokiaRequest): JolokiaResponse => {
    if (r.type !== 'read') return { status: 200, value: 0 };
    if (r.attribute === 'NodeID') return { status: 200, value: `id-${broker(r)}` };
    if (r.attribute === 'RemoteQueueNames') return { status: 200, value: remoteQueueNames };
    if (r.attribute === 'ConsumerCount')
      return { status: 200, value: { [r.mbean]: { ConsumerCount: bridges } } };
    if (r.attribute === 'MessageCount') return { status: 200, value: broker(r) === 'two' ? 5 : 0 };
    const mbean = `${r.mbean.replace('address=*', 'address="orders"')}`;
    return {
      status: 200,
      value: { [mbean]: { Address: 'orders', MessageCount: broker(r) === 'two' ? 5 : 0 } },
    };
  };
  const jolokia = {
    bulk: (_target: unknown, requests: JolokiaRequest[]) => Promise.resolve(requests.map(answer)),
  };
  return new MessageJobPlanner({ jolokia, lanes: new BrokerLanes() });
}

const nodeMove = (planner: MessageJobPlanner) =>
  planner.plan(cluster, {
    clusterId: 'c',
    jobId: 'j',
    queue: 'orders',
    job: StartMessageJobRequestSchema.parse({ kind: 'move', node: 'two', toNode: 'one' }),
    requestedBy: null,
  });

describe('a move to the same queue on another node', () => {
  it('runs on the holding node only, to the binding its cluster connection keeps for the other', async () => {
    const plan = await nodeMove(twoBrokers(['ordersid-one']));
    expect(plan.holders.map((h) => h.node.name)).toEqual(['two']);
    expect(plan.target).toBe('ordersid-one');
  });

  it('is refused before anything changes when the holding node has no such binding (max-hops 0, no cluster)', async () => {
    const refusal = await nodeMove(twoBrokers([])).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(RpcError);
    expect((refusal as RpcError).code).toBe(OWNER_FAILURES.refused);
    expect((refusal as RpcError).message).toContain('two has no cluster binding to queue');
  });

  it('is refused when the link is down: they would wait in its store-and-forward queue', async () => {
    const refusal = await nodeMove(twoBrokers(['ordersid-one'], 0)).catch((err: unknown) => err);
    expect((refusal as RpcError).code).toBe(OWNER_FAILURES.refused);
    expect((refusal as RpcError).message).toContain('the link from two to one is down');
  });

  it('is counted on the holding node only', async () => {
    const impact = await twoBrokers([]).impact(cluster, {
      clusterId: 'c',
      queue: 'orders',
      kind: 'move',
      node: 'two',
    });
    expect(impact.nodes.map((n) => [n.node, n.messages.count])).toEqual([['two', 5]]);
    expect(impact.messages).toEqual({ count: 5, atLeast: false });
  });
});
