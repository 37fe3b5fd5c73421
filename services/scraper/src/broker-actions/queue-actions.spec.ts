import { RpcError } from '@artemis-studio/bus';
import type { QueueActionCall } from '@artemis-studio/contracts';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { BrokerLanes } from '../jolokia/broker-lanes';
import { quoted } from '../jolokia/attribute-values';
import { QueueActions } from './queue-actions';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';

const MBEAN =
  'org.apache.activemq.artemis:address="orders",broker="a",component=addresses,queue="orders",routing-type="anycast",subcomponent=queues';

const cluster = (nodes = ['a']): ClusterNodes => ({
  target: { id: 'c' },
  liveNodes: () => nodes.map((name) => ({ id: name, name, jolokiaUrl: `http://${name}`, amqpUrl: null })),
  brokerName: (id) => id,
  amqpEndpoint: () => null,
  jolokiaTarget: (node) => ({ nodeKey: node.id, jolokiaUrl: node.jolokiaUrl, origin: 'http://x' }),
});

const call = (over: Partial<QueueActionCall> = {}): QueueActionCall => ({
  clusterId: '00000000-0000-4000-8000-000000000001',
  queue: 'orders',
  action: 'purge',
  dryRun: false,
  persist: false,
  ...over,
});

/** A broker that answers each bulk call with the next canned answers, and records what it was asked. */
function broker(...answers: JolokiaResponse[][]) {
  const asked: JolokiaRequest[][] = [];
  return {
    asked,
    jolokia: {
      bulk: async (_target: unknown, requests: JolokiaRequest[]) => {
        asked.push(requests);
        const next = answers.shift();
        if (!next) throw new Error('unexpected call');
        return next;
      },
    },
  };
}

const found = (depth: number, consumers = 0) => [
  { status: 200, value: { [MBEAN]: { MessageCount: depth, ConsumerCount: consumers, Paused: false } } },
];

describe('QueueActions', () => {
  it('purges and reports what the broker removed, with the depth before and after', async () => {
    const { jolokia, asked } = broker(found(12), [
      { status: 200, value: 12 },
      { status: 200, value: { MessageCount: 0, ConsumerCount: 0, Paused: false } },
    ]);
    const result = await new QueueActions(jolokia, new BrokerLanes()).run(cluster(), call());
    expect(result.messages).toBe(12);
    expect(result.nodes).toEqual([
      expect.objectContaining({ node: 'a', outcome: 'done', messages: 12, depthBefore: 12, depthAfter: 0 }),
    ]);
    expect(asked[1][0]).toEqual({
      type: 'exec',
      mbean: MBEAN,
      operation: 'removeAllMessages()',
      arguments: [],
    });
  });

  it('counts in a dry run and changes nothing', async () => {
    const { jolokia, asked } = broker(found(5));
    const result = await new QueueActions(jolokia, new BrokerLanes()).run(cluster(), call({ dryRun: true }));
    expect(result).toEqual(expect.objectContaining({ dryRun: true, messages: 5 }));
    expect(result.nodes[0].outcome).toBe('counted');
    expect(asked).toHaveLength(1);
  });

  it('says the queue is nowhere as a 404', async () => {
    const { jolokia } = broker([{ status: 404, error: 'InstanceNotFoundException' }]);
    await expect(new QueueActions(jolokia, new BrokerLanes()).run(cluster(), call())).rejects.toEqual(
      new RpcError(404, "queue 'orders' is on no live node"),
    );
  });

  it("answers the broker's refusal as a 409 with its words, and its busy lock as a retryable 423", async () => {
    const refused = broker(found(3, 1), [
      { status: 500, error: 'AMQ229025: Cannot delete queue orders on binding orders - it has consumers' },
      { status: 404 },
    ]);
    await expect(
      new QueueActions(refused.jolokia, new BrokerLanes()).run(cluster(), call({ action: 'delete' })),
    ).rejects.toMatchObject({ code: 409, message: expect.stringContaining('it has consumers') });

    const busy = broker(found(3), [
      { status: 500, error: 'AMQ229245: Management controller is busy' },
      { status: 200 },
    ]);
    await expect(
      new QueueActions(busy.jolokia, new BrokerLanes()).run(cluster(), call()),
    ).rejects.toMatchObject({
      code: 423,
    });
  });

  it('reports each node on its own: one done, one without the queue', async () => {
    const { jolokia } = broker(found(2), [{ status: 404 }]);
    const sut = new QueueActions(
      { bulk: async (t, r) => (t.nodeKey === 'b' ? [{ status: 404 }] : jolokia.bulk(t, r)) },
      new BrokerLanes(),
    );
    const result = await sut.run(cluster(['a', 'b']), call({ action: 'pause', persist: true, dryRun: true }));
    expect(result.nodes.map((n) => [n.node, n.outcome])).toEqual([
      ['a', 'counted'],
      ['b', 'absent'],
    ]);
    expect(result.messages).toBeNull();
  });

  it('quotes names as JMX does, so a * in a queue name is not a wildcard', () => {
    expect(quoted('a*b?"c\\')).toBe('"a\\*b\\?\\"c\\\\"');
  });
});

describe('BrokerLanes', () => {
  it('runs one piece of work at a time per broker, in order, and goes on after a failure', async () => {
    const sut = new BrokerLanes();
    const log: string[] = [];
    let release!: () => void;
    const first = sut.run('a', async () => {
      log.push('first start');
      await new Promise<void>((r) => (release = r));
      log.push('first end');
      throw new Error('refused');
    });
    const second = sut.run('a', async () => void log.push('second'));
    const other = sut.run('b', async () => void log.push('other broker'));
    await other;
    expect(log).toEqual(['first start', 'other broker']);
    release();
    await expect(first).rejects.toThrow('refused');
    await second;
    expect(log).toEqual(['first start', 'other broker', 'first end', 'second']);
    await new Promise((r) => setImmediate(r));
    expect(sut.busy()).toBe(0);
  });
});
