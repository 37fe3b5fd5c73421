import { UNOBSERVED_EVENT_TYPE, type RawBrokerEvent, type UnobservedPeriod } from '@artemis-studio/contracts';
import { v7 as timeOrderedUuid } from 'uuid';

/**
 * The record of a period in which the notifier did not observe some live node of a cluster: a
 * broker event of Studio's own type, stored and streamed in order with the rest, so the history
 * says where its own holes are (ADR-0010). `node` names the nodes observed again.
 */
export function unobservedEvent(
  clusterId: string,
  nodes: string[],
  period: UnobservedPeriod,
): RawBrokerEvent {
  return {
    eventId: timeOrderedUuid(),
    clusterId,
    node: (nodes.join(', ') || 'none').slice(0, 200),
    type: UNOBSERVED_EVENT_TYPE,
    brokerTs: null,
    receivedAt: period.until,
    address: null,
    queue: null,
    consumer: null,
    session: null,
    connection: null,
    remoteAddress: null,
    user: null,
    props: { ...period },
  };
}
