import { flag, quotedKey } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

/** One broker connection (AMQP) of one node, as a tier-B tick read it (docs/artemis.md). */
export interface BrokerConnectionReading {
  name: string;
  started: boolean;
  /** Connected to its peer now: false while a started connection retries. */
  connected: boolean;
}

/**
 * A wildcard read of every broker connection MBean: the fifth read of each tier-B request. Its
 * `Uri` is not read: it may carry a password.
 */
export const BROKER_CONNECTION_REQUEST: JolokiaRequest = {
  type: 'read',
  mbean: 'org.apache.activemq.artemis:broker=*,component=broker-connections,name=*',
  attribute: ['Started', 'Connected'],
};

/**
 * A node's broker connections; none on a broker without (404). Throws when the read failed: they
 * are then unknown, not gone.
 */
export function parseBrokerConnections(answer: JolokiaResponse | undefined): BrokerConnectionReading[] {
  if (answer?.status === 404) return [];
  if (!answer || answer.status !== 200)
    throw new Error(`broker connection read failed: ${answer?.error ?? 'no answer'}`);
  return Object.entries((answer.value ?? {}) as Record<string, Record<string, unknown>>).map(([mbean, a]) => {
    const name = quotedKey(mbean, 'name');
    const started = flag(a.Started);
    const connected = flag(a.Connected);
    if (name === null || started === null || connected === null)
      throw new Error(`broker connection ${name ?? mbean} could not be read`);
    return { name, started, connected };
  });
}
