import type { BrokerProfile } from '@artemis-studio/testing';
import { startBroker } from '@artemis-studio/testing';
import axios from 'axios';
import type { ClusterNodes } from '../../services/scraper/src/cluster-parts/owned-cluster';
import { quoted } from '../../services/scraper/src/jolokia/attribute-values';
import { CallLimiter } from '../../services/scraper/src/jolokia/call-limiter';
import { JolokiaClient, type JolokiaTarget } from '../../services/scraper/src/jolokia/jolokia-client';

/**
 * The shared `bench` broker as the message benchmarks use it: the owner's Jolokia client (no call
 * budget), its MBeans, and the queue housekeeping every one of them needs. A benchmark removes its
 * queues before and after: the broker is shared with every other benchmark.
 */
export async function benchBroker() {
  const broker: BrokerProfile = await startBroker('bench');
  const node = broker.nodes[0];
  const jolokia = new JolokiaClient(new CallLimiter(1e9), axios.create({ timeout: 600_000 }));
  const target: JolokiaTarget = {
    nodeKey: 'bench',
    jolokiaUrl: node.jolokiaUrl,
    origin: 'http://127.0.0.1',
    auth: { username: broker.user, password: broker.password },
  };
  const brokerMbean = `org.apache.activemq.artemis:broker=${quoted(node.name)}`;
  const queueMbean = (queue: string) =>
    `${brokerMbean},component=addresses,address=${quoted(queue)},subcomponent=queues,routing-type="anycast",queue=${quoted(queue)}`;
  const exec = async (mbean: string, operation: string, args: unknown[]) => {
    const [answer] = await jolokia.bulk(target, [{ type: 'exec', mbean, operation, arguments: args }], {
      timeoutMs: 600_000,
    });
    if (answer.status !== 200) throw new Error(`${operation}: ${answer.error}`);
    return answer.value;
  };
  /** The queue's MessageCount, or null when the broker has no such queue. */
  const depth = async (queue: string): Promise<number | null> => {
    const [answer] = await jolokia.bulk(target, [
      { type: 'read', mbean: queueMbean(queue), attribute: 'MessageCount' },
    ]);
    return answer.status === 200 ? (answer.value as number) : null;
  };
  const ensureQueue = (queue: string) =>
    exec(brokerMbean, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: queue, address: queue, 'routing-type': 'ANYCAST', durable: true }),
      true,
    ]);
  /**
   * The queues gone: emptied first in commits of 10,000 (destroying a queue of a million messages
   * at once ran the broker out of heap).
   */
  const removeQueues = async (queues: readonly string[]) => {
    for (const queue of queues) {
      if ((await depth(queue)) === null) continue;
      await exec(queueMbean(queue), 'removeMessages(int,java.lang.String)', [10_000, '']);
      await exec(brokerMbean, 'destroyQueue(java.lang.String,boolean,boolean)', [queue, true, true]);
    }
  };
  /** The broker as the owner's parts see a registered cluster of it. */
  const clusterOf = (registered: { id: string; nodeIds: string[] }): ClusterNodes => ({
    target: { id: registered.id },
    liveNodes: () => [
      { id: registered.nodeIds[0], name: node.name, jolokiaUrl: node.jolokiaUrl, amqpUrl: null },
    ],
    brokerName: () => node.name,
    amqpEndpoint: () => null,
    jolokiaTarget: () => target,
  });
  return {
    broker,
    node,
    jolokia,
    brokerMbean,
    queueMbean,
    exec,
    depth,
    ensureQueue,
    removeQueues,
    clusterOf,
  };
}
