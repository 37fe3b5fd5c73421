import type { BrokerProfile } from '@artemis-studio/testing';
import axios from 'axios';
import { CallLimiter } from '../../services/scraper/src/jolokia/call-limiter';
import { JolokiaClient } from '../../services/scraper/src/jolokia/jolokia-client';

/** The bench broker's queues: `bench.q.00000` onwards, anycast, one address each. */
export const benchQueueName = (i: number) => `bench.q.${String(i).padStart(5, '0')}`;

/**
 * Creates the bench queues the broker's first node does not hold yet, 250 to a Jolokia bulk
 * request: the bench profile keeps its data between runs, so only the first run pays for them.
 */
export async function fillBenchQueues(broker: BrokerProfile, count: number): Promise<number> {
  const node = broker.nodes[0];
  // Creating 250 queues is one request; it outlasts the scraper's 5 s Jolokia timeout.
  const jolokia = new JolokiaClient(new CallLimiter(1e9), axios.create({ timeout: 120_000 }));
  const target = {
    nodeKey: 'bench-fill',
    jolokiaUrl: node.jolokiaUrl,
    origin: 'http://127.0.0.1',
    auth: { username: broker.user, password: broker.password },
  };
  const brokerMBean = `org.apache.activemq.artemis:broker="${node.name}"`;
  const [answer] = await jolokia.bulk(target, [
    { type: 'read', mbean: brokerMBean, attribute: 'QueueNames' },
  ]);
  const existing = new Set(answer.value as string[]);
  const missing = Array.from({ length: count }, (_, i) => benchQueueName(i)).filter((q) => !existing.has(q));
  for (let i = 0; i < missing.length; i += 250) {
    const batch = missing.slice(i, i + 250).map((name) => ({
      type: 'exec' as const,
      mbean: brokerMBean,
      operation: 'createQueue(java.lang.String,boolean)',
      arguments: [JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST' }), true],
    }));
    const answers = await jolokia.bulk(target, batch);
    const failed = answers.find((a) => a.status !== 200);
    if (failed) throw new Error(`could not create bench queues: ${failed.error}`);
  }
  if (missing.length) console.log(`created ${missing.length} queues`);
  return missing.length;
}
