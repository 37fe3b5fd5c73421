import type { RawBrokerEvent } from '@artemis-studio/contracts';
import { hash } from 'node:crypto';
import { v7 as timeOrderedUuid } from 'uuid';

/** Properties that differ between two deliveries of one notification, so they are no part of its key. */
const DELIVERY_PROPERTIES = new Set(['JMSXDeliveryCount']);

/**
 * The event id of one broker notification, derived from the notification itself: the same
 * notification received by two subscriptions (the old and the new owner overlapping in a
 * handover, ADR-0014) gets the same id, so the stream's duplicate window and the event store's
 * unique index keep it once. The broker stamps no message id on a notification, so the key is its
 * cluster, node and every property but the delivery count; the broker's timestamp is among them.
 *
 * Laid out as a UUIDv7 (the broker's timestamp in the first 48 bits) but marked version 8, as RFC
 * 9562 asks of an id that is not random: the event store's unique index still grows at its right
 * edge (see the normaliser). Without a broker timestamp nothing identifies the notification, and
 * the id is a random time-ordered one, as before.
 */
export function notificationEventId(
  clusterId: string,
  node: string,
  properties: RawBrokerEvent['props'],
): string {
  const stamp = properties._AMQ_NotifTimestamp;
  // The id's first 48 bits hold the stamp: one past them (sent by hand; a broker's clock reaches
  // them in the year 10889) threw out of the AMQP receiver.
  if (typeof stamp !== 'number' || !Number.isSafeInteger(stamp) || stamp < 0 || stamp >= 2 ** 48)
    return timeOrderedUuid();
  // One string hashed in one call rather than a native call per part: the same bytes, so the same
  // ids as earlier builds (the old and the new notifier of a rolling update must agree).
  let key = `${clusterId}\0${node}`;
  for (const name of Object.keys(properties).sort()) {
    if (DELIVERY_PROPERTIES.has(name)) continue;
    key += `\0${name}\0${JSON.stringify(properties[name])}`;
  }
  const bytes = hash('sha256', key, 'buffer').subarray(0, 16);
  bytes.writeUIntBE(stamp, 0, 6);
  bytes[6] = 0x80 | (bytes[6] & 0x0f); // version 8
  bytes[8] = 0x80 | (bytes[8] & 0x3f); // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
