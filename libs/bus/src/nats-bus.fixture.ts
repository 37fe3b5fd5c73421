import { RawBrokerEvent } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { BusMetrics } from './bus';

export class CountingMetrics implements BusMetrics {
  readonly counts: Record<string, number> = {};
  malformed(channel: string) {
    this.bump(`malformed:${channel}`);
  }
  handlerFailed(channel: string) {
    this.bump(`failed:${channel}`);
  }
  publishDropped(channel: string) {
    this.bump(`dropped:${channel}`);
  }
  pullsGivenUp(consumer: string) {
    this.bump(`given-up:${consumer}`);
  }
  private bump(key: string) {
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }
}

export const quiet = { warn: () => undefined, error: () => undefined };

export function rawEvent(clusterId: string, n: number): RawBrokerEvent {
  return {
    eventId: randomUUID(),
    clusterId,
    node: 'node-a',
    type: 'CONSUMER_CREATED',
    brokerTs: new Date().toISOString(),
    receivedAt: new Date().toISOString(),
    address: `q${n}`,
    queue: `q${n}`,
    consumer: String(n),
    session: null,
    connection: null,
    remoteAddress: null,
    user: null,
    props: { _AMQ_NotifType: 'CONSUMER_CREATED', _AMQ_Distance: 0 },
  };
}
