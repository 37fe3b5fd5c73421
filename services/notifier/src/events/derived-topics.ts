import type { SignalTopic } from '@artemis-studio/contracts';

/**
 * The resource views a notification makes stale (ADR-0027): consumer events touch consumers and
 * the queues' consumer counts; sessions and connections their own lists; bindings, addresses and
 * deliveries the queues.
 */
export function derivedTopics(type: string): readonly SignalTopic[] {
  if (type.startsWith('CONSUMER_')) return ['consumers', 'queues'];
  if (type.startsWith('SESSION_')) return ['sessions'];
  if (type.startsWith('CONNECTION_')) return ['connections'];
  if (type.startsWith('BINDING_') || type.startsWith('ADDRESS_') || type.startsWith('MESSAGE_'))
    return ['queues'];
  return [];
}
