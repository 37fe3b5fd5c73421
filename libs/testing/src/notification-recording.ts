import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { types, type Typed } from 'rhea';

export type PropertyValue = string | number | boolean | null;

/** One notification as a receiver of `activemq.notifications` decodes it, every section kept. */
export interface RecordedNotification {
  durable?: boolean;
  priority?: number;
  to?: string;
  /** ISO 8601 in the recording; the simulator sends the moment it sends. */
  creation_time?: string;
  message_annotations?: Record<string, PropertyValue>;
  application_properties: Record<string, PropertyValue>;
}

/**
 * What the real broker sent on `activemq.notifications` while one consumer was attached to a queue
 * and closed, on a connection already open (issue 32, item 5), recorded by
 * services/notifier/src/subscriptions/notification-simulator.int-spec.ts with
 * RECORD_NOTIFICATIONS=1 against the broker scripts/artemis.sh runs: a session made, the consumer
 * made and closed, the session closed, the notifications of a busy broker's consumer churn.
 */
export interface NotificationRecording {
  artemisVersion: string;
  /**
   * The names the cycle's properties hold that differ from one consumer to the next: the
   * simulator writes its own in their place wherever they occur (the queue's name is also part of
   * its binding's cluster name).
   */
  names: { queue: string; session: string; clientId: string; remoteAddress: string; connection: string };
  cycle: RecordedNotification[];
}

export const NOTIFICATION_RECORDING_PATH = join(
  __dirname,
  '..',
  'fixtures',
  'notifications-artemis-2.40.json',
);

export function notificationRecording(path = NOTIFICATION_RECORDING_PATH): NotificationRecording {
  return JSON.parse(readFileSync(path, 'utf8')) as NotificationRecording;
}

export function replaced(value: PropertyValue, replacements: [string, string][]): PropertyValue {
  if (typeof value !== 'string') return value;
  let out = value;
  for (const [from, to] of replacements) if (from && out.includes(from)) out = out.split(from).join(to);
  return out;
}

/**
 * A number as the broker types it: Java's int or long, signed (rhea would send an unsigned int,
 * which decodes to the same number but is not what the broker writes).
 */
export function typed(value: PropertyValue): Typed | PropertyValue {
  if (typeof value !== 'number' || !Number.isInteger(value)) return value;
  return Math.abs(value) < 2 ** 31 ? types.wrap_int(value) : types.wrap_long(value);
}
