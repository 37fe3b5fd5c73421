import type { ExportedMessage } from '@artemis-studio/contracts';
import { message as amqp, type Message } from 'rhea-promise';
import { typedValue } from '../broker-actions/amqp-send';

/** The broker's own properties: it sets them itself, and a stale duplicate id would make it drop the message. */
const BROKER_PROPERTY = /^_AMQ_/;

/** Whether an exported property goes back with its message: not masked, not the broker's own. */
const sentBack = (p: ExportedMessage['properties'][number]): boolean =>
  !p.masked && !BROKER_PROPERTY.test(p.name);

const when = (instant: string | null) => (instant ? new Date(instant) : undefined);

/**
 * An exported message as an application sends it again: its header and application fields, its
 * properties each as the AMQP type it had, its body as it was (text as a string, bytes as a data
 * section, another value as that value). The broker's annotations are its own and not sent.
 */
export function importedMessage(m: ExportedMessage): Message {
  const body =
    m.body.data === null
      ? null
      : m.body.encoding === 'base64'
        ? amqp.data_section(Buffer.from(m.body.data, 'base64'))
        : m.body.encoding === 'value'
          ? (JSON.parse(m.body.data) as unknown)
          : m.body.data;
  return {
    body,
    durable: m.durable,
    priority: m.priority,
    ...(m.messageId !== null && { message_id: m.messageId }),
    ...(m.correlationId !== null && { correlation_id: m.correlationId }),
    ...(m.subject !== null && { subject: m.subject }),
    ...(m.replyTo !== null && { reply_to: m.replyTo }),
    ...(m.contentType !== null && { content_type: m.contentType }),
    ...(m.groupId !== null && { group_id: m.groupId }),
    ...(m.createdAt !== null && { creation_time: when(m.createdAt) }),
    ...(m.expiresAt !== null && { absolute_expiry_time: when(m.expiresAt) }),
    application_properties: Object.fromEntries(
      m.properties.filter(sentBack).map((p) => [p.name, typedValue(p)]),
    ),
  };
}
