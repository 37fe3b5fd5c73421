import {
  EXPORT_BODY_MAX_BYTES,
  EXPORT_FORMAT,
  type ExportedMessage,
  type ExportedProperty,
} from '@artemis-studio/contracts';
import type { Message } from 'rhea-promise';
import { typedEntries, valueText } from './amqp-types';

/** AMQP's data section descriptor: a body of bytes. */
const DATA_SECTION = 0x75;

type Body = ExportedMessage['body'];

/** Where an exported message was read. */
export interface ExportSource {
  clusterId: string;
  node: string;
  queue: string;
}

const textOrNull = (value: unknown): string | null =>
  value === undefined || value === null ? null : valueText(value);

const instantOrNull = (value: unknown): string | null =>
  value instanceof Date && Number.isFinite(value.getTime())
    ? value.toISOString()
    : typeof value === 'number' && value > 0
      ? new Date(value).toISOString()
      : null;

/** At most `max` bytes, and whether more were left out. */
function cut(bytes: Buffer, max = EXPORT_BODY_MAX_BYTES): { bytes: Buffer; truncated: boolean } {
  return bytes.length > max
    ? { bytes: bytes.subarray(0, max), truncated: true }
    : { bytes, truncated: false };
}

/** The bytes of a data section (or several), as rhea gives them. */
function sectionBytes(content: unknown): Buffer {
  if (Buffer.isBuffer(content)) return content;
  if (Array.isArray(content)) return Buffer.concat(content.filter((c) => Buffer.isBuffer(c)) as Buffer[]);
  return Buffer.alloc(0);
}

/** A body as its line holds it: text, the bytes of a data section, or another AMQP value as JSON. */
export function exportedBody(body: unknown): Body {
  const untouched = { masked: null };
  if (body === undefined || body === null)
    return { encoding: 'text', data: null, truncated: false, ...untouched };
  if (typeof body === 'string') {
    const { bytes, truncated } = cut(Buffer.from(body, 'utf8'));
    return { encoding: 'text', data: truncated ? bytes.toString('utf8') : body, truncated, ...untouched };
  }
  const section = body as { typecode?: number; content?: unknown };
  if (Buffer.isBuffer(body) || section.typecode === DATA_SECTION) {
    const { bytes, truncated } = cut(Buffer.isBuffer(body) ? body : sectionBytes(section.content));
    return { encoding: 'base64', data: bytes.toString('base64'), truncated, ...untouched };
  }
  const json = JSON.stringify(body, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  const { bytes, truncated } = cut(Buffer.from(json, 'utf8'));
  return { encoding: 'value', data: bytes.toString('utf8'), truncated, ...untouched };
}

/**
 * One message as an export's line holds it, as a browsing AMQP receiver got it: its properties
 * with the types they arrived as (one of a type no application property of the broker's has, a
 * UUID say, is exported as its text), the broker's annotations, and its whole body up to the cut.
 */
export function exportedMessage(message: Message, source: ExportSource): ExportedMessage {
  const properties: ExportedProperty[] = typedEntries(message.application_properties).map((p) => ({
    name: p.name,
    type: p.type ?? 'string',
    value: valueText(p.value),
  }));
  const annotations = Object.fromEntries(
    typedEntries(message.message_annotations).map((a) => [a.name, valueText(a.value)]),
  );
  return {
    format: EXPORT_FORMAT,
    source,
    durable: message.durable ?? false,
    priority: message.priority ?? 4,
    messageId: textOrNull(message.message_id),
    correlationId: textOrNull(message.correlation_id),
    subject: textOrNull(message.subject),
    replyTo: textOrNull(message.reply_to),
    contentType: textOrNull(message.content_type),
    groupId: textOrNull(message.group_id),
    createdAt: instantOrNull(message.creation_time),
    expiresAt: instantOrNull(message.absolute_expiry_time),
    properties,
    annotations,
    body: exportedBody(message.body),
  };
}
