import {
  BROKER_EVENT_LIMITS,
  NOTIFICATION_ADDRESS,
  type BrokerEventPropValue as PropValue,
  type RawBrokerEvent,
} from '@artemis-studio/contracts';
import { notificationEventId } from './event-id';

/**
 * Our subscriptions' AMQP container id starts with this. The broker reports our own consumer on
 * `activemq.notifications` like any other: those events are the console watching itself, so they
 * are skipped (and counted), not stored (docs/adr/0005-notifier.md).
 */
export const OWN_CLIENT_PREFIX = 'artemis-studio-notifier';

/**
 * The largest event published, as JSON. A notification is a kilobyte or two; one past this (a
 * property of megabytes, sent to the notification address by hand) would exceed what NATS takes in
 * one message and be refused at every retry, holding up every event behind it.
 */
export const MAX_EVENT_JSON_CHARS = 65_536;

/** Year 10000: a timestamp from then on (or before 1970) has no ISO form the contract takes. */
const END_OF_ISO_TIME_MS = Date.UTC(10000, 0, 1);

export type Normalised =
  /** `json`: the event as published, built to fit the contract here, where it enters Studio. */
  | { kind: 'event'; event: RawBrokerEvent; json: string }
  | { kind: 'remote' } // re-sent by a peer (_AMQ_Distance > 0): stored once, by its own node
  | { kind: 'own' } // caused by our own subscription
  | { kind: 'malformed'; reason: string };

/** Turns one notification's application-properties into a BrokerEvent of `node` in `clusterId`. */
export function normaliseNotification(
  properties: Record<string, unknown> | undefined,
  clusterId: string,
  node: string,
  receivedAt: Date,
): Normalised {
  if (!properties) return { kind: 'malformed', reason: 'no application-properties' };
  const props: Record<string, PropValue> = {};
  for (const [key, value] of Object.entries(properties)) props[key] = plain(value);

  const type = props._AMQ_NotifType;
  if (typeof type !== 'string' || type.length === 0)
    return { kind: 'malformed', reason: 'no _AMQ_NotifType' };
  const distance = props._AMQ_Distance;
  if (typeof distance === 'number' && distance > 0) return { kind: 'remote' };
  const clientId = props._AMQ_Client_ID;
  if (typeof clientId === 'string' && clientId.startsWith(OWN_CLIENT_PREFIX)) return { kind: 'own' };
  // A binding on the notification address is a notification subscriber's temporary queue: ours
  // among them, and the broker reports it without a client id, so it cannot be told apart.
  if (type.startsWith('BINDING_') && props._AMQ_Address === NOTIFICATION_ADDRESS) return { kind: 'own' };

  const timestamp = props._AMQ_NotifTimestamp;
  const brokerTs =
    typeof timestamp === 'number' && timestamp >= 0 && timestamp < END_OF_ISO_TIME_MS
      ? new Date(timestamp).toISOString()
      : null;
  return checked({
    // Time-ordered, not random: the event store's unique index on event_id then grows at its
    // right edge like the seq index. With random ids every insert lands on a random leaf page:
    // with a million stored rows, PostgreSQL took 13 to 18% longer per insert and wrote 27% more
    // WAL (npm run bench -- event-ids), and the table keeps 72 hours of events.
    eventId: notificationEventId(clusterId, node, props),
    clusterId,
    node,
    type,
    brokerTs,
    receivedAt: receivedAt.toISOString(),
    // Session notifications carry the notification address itself, not an address of the session.
    address: type.startsWith('SESSION_') ? null : text(props._AMQ_Address),
    queue: text(props._AMQ_RoutingName),
    consumer: text(props._AMQ_ConsumerName),
    session: text(props._AMQ_SessionName),
    connection: text(props._AMQ_ConnectionName),
    remoteAddress: text(props._AMQ_RemoteAddress),
    user: text(props._AMQ_User) ?? text(props._AMQ_ValidatedUser),
    props,
  });
}

/**
 * The broker's notification address is where Studio's input crosses a trust boundary: whoever may
 * send to it can send anything. An event that breaks the contract (a type past its length) or is
 * too large to publish is malformed here, counted and skipped. Found later, at the publish, it was
 * refused at every retry, and every event behind it waited.
 *
 * The event is built to fit the contract (its ids and times are ours, text is cut to length,
 * properties made plain), so what is left to check is what the broker or the node's name decide.
 * Checking the whole event against RawBrokerEventSchema here as well took a tenth of this service's
 * CPU at 1,000 notifications/s (docs/benchmarks.md, broker-to-browser); the event store checks it
 * where it comes off the bus, and a unit test holds what is built here to the schema.
 */
function checked(event: RawBrokerEvent): Normalised {
  if (event.type.length > BROKER_EVENT_LIMITS.type)
    return { kind: 'malformed', reason: `type: more than ${BROKER_EVENT_LIMITS.type} characters` };
  if (event.node.length === 0 || event.node.length > BROKER_EVENT_LIMITS.node)
    return { kind: 'malformed', reason: `node: not 1 to ${BROKER_EVENT_LIMITS.node} characters` };
  const json = JSON.stringify(event);
  if (json.length > MAX_EVENT_JSON_CHARS)
    return {
      kind: 'malformed',
      reason: `${json.length} characters as JSON, more than ${MAX_EVENT_JSON_CHARS}`,
    };
  return { kind: 'event', event, json };
}

/** A property as JSON can carry it: longs past 2^53 arrive from rhea as 8-byte Buffers. */
function plain(value: unknown): PropValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value))
    return value.length === 8 ? value.readBigInt64BE().toString() : value.toString('hex');
  if (value instanceof Date) return value.getTime();
  // JSON.stringify gives undefined for a symbol or a function: the property would vanish.
  return JSON.stringify(value) ?? String(value);
}

function text(value: PropValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value);
  return s.length > BROKER_EVENT_LIMITS.text ? s.slice(0, BROKER_EVENT_LIMITS.text) : s;
}
