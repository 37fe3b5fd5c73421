import type { QueueObservation } from './queue-observation';

/** An anycast queue as a tier-B read gives it: empty, idle and durable unless `over` says else. */
export const observedQueue = (name: string, over: Partial<QueueObservation> = {}): QueueObservation => ({
  name,
  address: name,
  routingType: 'ANYCAST',
  messageCount: 0,
  consumerCount: 0,
  deliveringCount: 0,
  messagesAdded: 0,
  messagesAcknowledged: 0,
  messagesExpired: 0,
  messagesKilled: 0,
  paused: false,
  durable: true,
  temporary: false,
  firstMessageAt: null,
  ...over,
});
