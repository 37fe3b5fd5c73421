import type { RawBrokerEvent } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';

/**
 * A valid raw broker event, as the notifier publishes it: a consumer created on `orders`, with a
 * new event id and cluster id unless `overrides` name them.
 */
export function rawBrokerEvent(overrides: Partial<RawBrokerEvent> = {}): RawBrokerEvent {
  return {
    eventId: randomUUID(),
    clusterId: randomUUID(),
    node: 'node-a',
    type: 'CONSUMER_CREATED',
    brokerTs: '2026-11-30T01:02:03.456Z',
    receivedAt: '2026-11-30T01:02:03.789Z',
    address: 'orders',
    queue: 'orders',
    consumer: '7',
    session: null,
    connection: null,
    remoteAddress: '10.0.0.7:51234',
    user: 'app',
    props: { _AMQ_NotifType: 'CONSUMER_CREATED', _AMQ_Distance: 0 },
    ...overrides,
  };
}
