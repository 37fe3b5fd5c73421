import { z } from 'zod';
import { Instant, Uuid } from '../common';

/**
 * One `_AMQ_*` property as the broker sent it. Longs past 2^53 and binary values are carried as
 * strings, because JSON has no exact representation for them.
 */
export type BrokerEventPropValue = string | number | boolean | null;

const isPropValue = (value: unknown): value is BrokerEventPropValue =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));

function isProps(value: unknown): value is Record<string, BrokerEventPropValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (!isPropValue((value as Record<string, unknown>)[key])) return false;
  return true;
}

/**
 * Every `_AMQ_*` property, checked in one loop: as `z.record` of a union, each property's parse was
 * two thirds of an event's check, which the event store and every gateway make on each event they
 * take off the bus (docs/benchmarks.md, broker-to-browser). Documented as the record it is (a
 * custom check is written to JSON Schema only with `unrepresentable: 'any'`, as the gateway does).
 */
const PropsSchema = z
  .custom<Record<string, BrokerEventPropValue>>(isProps, {
    error: 'expected an object of strings, finite numbers, booleans and nulls',
  })
  .meta({
    type: 'object',
    propertyNames: { type: 'string' },
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
  });

/**
 * The longest a broker event's fields may be. The notifier builds its events to fit them (it cuts
 * text, and refuses a type or node past its length) instead of checking each event against this
 * schema: the event store checks them where they come off the bus.
 */
export const BROKER_EVENT_LIMITS = { node: 200, type: 100, text: 4096 } as const;

const Text = z.string().max(BROKER_EVENT_LIMITS.text).nullable();

/**
 * A broker notification normalised by the notifier and published on `event.raw` (ADR-0028).
 * `eventId` is the JetStream message id (a retried publish is discarded as a duplicate) and the
 * key that keeps a redelivered event from being stored twice.
 */
export const RawBrokerEventSchema = z.object({
  eventId: Uuid,
  clusterId: Uuid,
  node: z.string().min(1).max(BROKER_EVENT_LIMITS.node),
  /** `_AMQ_NotifType`; a type this build does not know passes through with its name. */
  type: z.string().min(1).max(BROKER_EVENT_LIMITS.type),
  /** `_AMQ_NotifTimestamp`, when the broker sent one. */
  brokerTs: Instant.nullable(),
  receivedAt: Instant,
  address: Text,
  queue: Text,
  consumer: Text,
  session: Text,
  connection: Text,
  remoteAddress: Text,
  user: Text,
  /** Every `_AMQ_*` property verbatim. */
  props: PropsSchema,
});
export type RawBrokerEvent = z.infer<typeof RawBrokerEventSchema>;

/** A stored broker event: `seq` is its `broker_event` identity, its order and the SSE cursor. */
export const BrokerEventSchema = RawBrokerEventSchema.extend({
  seq: z.number().int().positive(),
});
export type BrokerEvent = z.infer<typeof BrokerEventSchema>;

/**
 * A broker event as the event store publishes it on `event.stored`: with `prevSeq`, the seq of the
 * cluster's stored event before it (0 for its first). `event.stored` is a plain NATS publish, so a
 * receiver that sees a `prevSeq` above the last seq it got knows it missed some (the writer died
 * between commit and publish, NATS restarted) and can read them from the store.
 */
export const StoredBrokerEventSchema = BrokerEventSchema.extend({
  prevSeq: z.number().int().nonnegative().optional(),
});
export type StoredBrokerEvent = z.infer<typeof StoredBrokerEventSchema>;

/**
 * Where a broker event can be lost; each is counted per cluster (non-negotiable 2). `broker-ring`:
 * discarded by Studio's ring on a broker while nobody read it fast enough (ADR-0015).
 */
export const DROP_SOURCES = ['broker-ring', 'notifier', 'event-store', 'stream'] as const;

/**
 * A count of broker events lost at a bound, sent to the event store, which adds it to the
 * cluster's `dropped` exactly once per `reportId` (a retried report is recognised). Not sent
 * through STUDIO_EVENTS: a full stream would refuse the very report of its refusals.
 */
export const DropReportSchema = z.object({
  reportId: Uuid,
  clusterId: Uuid,
  source: z.enum(DROP_SOURCES),
  count: z.number().int().positive(),
  reason: z.string().max(500),
  ts: Instant,
  /** The earliest the lost events may have been sent, when before `ts` (a ring unread for a while). */
  from: Instant.optional(),
});
export type DropReport = z.infer<typeof DropReportSchema>;
