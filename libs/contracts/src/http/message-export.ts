import { z } from 'zod';
import { Instant, Uuid } from '../common';
import { BROWSED_PROPERTY_TYPES } from './queue-messages';
import { BodyFilterCall, BodyFilterQuery } from './body-filters';

/** What every exported line says it is, so a reader (an import) knows the shape it holds. */
export const EXPORT_FORMAT = 'artemis-studio.message/1';

/** The biggest body an export carries whole; past it the body is cut and said to be. */
export const EXPORT_BODY_MAX_BYTES = 256 * 1024;

/** `GET …/queues/{queue}/export`: the queue's messages as NDJSON, on one node or on every one holding it. */
export const QueueExportQuerySchema = z
  .object({
    /** One node; every live node holding the queue, one after the other, when absent. */
    node: z.string().min(1).max(200).optional(),
    /** An Artemis filter expression (selector syntax), applied by the broker as it reads. */
    filter: z.string().max(2000).optional(),
    /** A body filter (ADR-0038): only the messages whose bodies it matches are exported. */
    ...BodyFilterQuery,
  })
  .strict();
export type QueueExportQuery = z.infer<typeof QueueExportQuerySchema>;

const ExportedPropertySchema = z.object({
  name: z.string(),
  /** The AMQP type the message carries it as (the broker's Java type). */
  type: z.enum(BROWSED_PROPERTY_TYPES),
  /** As text, so a long keeps all 64 bits; `***` where the cluster's masking rules hid it. */
  value: z.string(),
  /** Hidden by the cluster's masking rules: an import leaves it out rather than send `***`. */
  masked: z.boolean().optional(),
});
export type ExportedProperty = z.infer<typeof ExportedPropertySchema>;

/**
 * One message of an export (one NDJSON line): where it was read, its header and properties as the
 * broker delivered them over AMQP 1.0, typed, and its whole body (up to EXPORT_BODY_MAX_BYTES).
 */
export const ExportedMessageSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  source: z.object({ clusterId: Uuid, node: z.string(), queue: z.string() }),
  durable: z.boolean(),
  priority: z.number().int().min(0).max(255),
  /** The message's own id and its application's fields, as text; null where it carries none. */
  messageId: z.string().nullable(),
  correlationId: z.string().nullable(),
  subject: z.string().nullable(),
  replyTo: z.string().nullable(),
  contentType: z.string().nullable(),
  groupId: z.string().nullable(),
  createdAt: Instant.nullable(),
  expiresAt: Instant.nullable(),
  properties: z.array(ExportedPropertySchema),
  /** The broker's annotations (`x-opt-*`: its original address and queue, routing type), as text. */
  annotations: z.record(z.string(), z.string()),
  body: z.object({
    /**
     * `text`: a string body; `base64`: the bytes of a data section; `value`: any other AMQP value
     * (a map, a list, a number) as JSON.
     */
    encoding: z.enum(['text', 'base64', 'value']),
    /** Null when the message has no body, or when masking withheld it. */
    data: z.string().nullable(),
    /** Cut at EXPORT_BODY_MAX_BYTES: the line does not hold the whole body. */
    truncated: z.boolean(),
    /** As for a browsed message: changed or withheld by the cluster's masking rules. */
    masked: z.enum(['masked', 'withheld']).nullable(),
  }),
});
export type ExportedMessage = z.infer<typeof ExportedMessageSchema>;

/** The owner RPC's request: the next part of an export, its first part when `session` is absent. */
export const QueueExportCallSchema = QueueExportQuerySchema.extend({
  clusterId: Uuid,
  queue: z.string().min(1).max(1000),
  /** The export's session on the owner, from its first part's answer. */
  session: Uuid.optional(),
  ...BodyFilterCall,
}).strict();
export type QueueExportCall = z.infer<typeof QueueExportCallSchema>;

export const QueueExportPartSchema = z.object({
  session: Uuid,
  messages: z.array(ExportedMessageSchema),
  /** Nothing follows: every node was read to its end. */
  done: z.boolean(),
});
export type QueueExportPart = z.infer<typeof QueueExportPartSchema>;

/** The biggest line an import takes: with a part's other lines, it must fit one NATS message (1 MB). */
export const IMPORT_LINE_MAX_BYTES = 640 * 1024;

/** The biggest NDJSON file an import takes. */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** `POST …/queues/{queue}/import`: an export's lines sent to the queue, checked first. */
export const QueueImportQuerySchema = z
  .object({
    /** Every line checked and counted, nothing sent. */
    dryRun: z.enum(['true', 'false']).default('false'),
    /** Messages a second, at most; as fast as the broker takes them when absent. */
    rate: z.coerce.number().int().min(1).max(10_000).optional(),
    /** The node to send on; the first live node holding the queue when absent. */
    node: z.string().min(1).max(200).optional(),
  })
  .strict();
export type QueueImportQuery = z.infer<typeof QueueImportQuerySchema>;

/** What an import did, or (a dry run) would do. */
export const QueueImportReportSchema = z.object({
  dryRun: z.boolean(),
  queue: z.string(),
  node: z.string(),
  /** Messages in the file, every line checked. */
  messages: z.number().int().nonnegative(),
  /** Sent and accepted by the broker (0 for a dry run). */
  imported: z.number().int().nonnegative(),
  /** Properties not sent: masked at export (their value is not the message's), or the broker's own (`_AMQ_*`). */
  leftOut: z.object({ masked: z.number().int().nonnegative(), broker: z.number().int().nonnegative() }),
});
export type QueueImportReport = z.infer<typeof QueueImportReportSchema>;

/** The owner RPC's request: messages to send to the queue on one node, over AMQP, in order. */
export const QueueImportCallSchema = z
  .object({
    clusterId: Uuid,
    queue: z.string().min(1).max(1000),
    node: z.string().min(1).max(200).optional(),
    /** None: the queue is only looked up (a dry run), and the node it would go to answered. */
    messages: z.array(ExportedMessageSchema).max(1000),
  })
  .strict();
export type QueueImportCall = z.infer<typeof QueueImportCallSchema>;

export const QueueImportPartSchema = z.object({ node: z.string(), sent: z.number().int().nonnegative() });
export type QueueImportPart = z.infer<typeof QueueImportPartSchema>;

/**
 * Why one line of an import file cannot be sent as it is, or null: not an export's line, a cut
 * body (sending it would change the message), or a body masking withheld.
 */
export function importLineProblem(line: string): { message: ExportedMessage } | { problem: string } {
  if (new TextEncoder().encode(line).byteLength > IMPORT_LINE_MAX_BYTES)
    return { problem: `larger than ${IMPORT_LINE_MAX_BYTES / 1024} kB, more than an export's line holds` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { problem: 'not JSON' };
  }
  const message = ExportedMessageSchema.safeParse(parsed);
  if (!message.success)
    return {
      problem: `not an exported message (${message.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || 'line'}: ${i.message}`)
        .join('; ')})`,
    };
  if (message.data.body.truncated)
    return { problem: 'its body was cut at export: sending it would change it' };
  if (message.data.body.masked === 'withheld')
    return { problem: 'its body was withheld by masking at export: there is nothing to send' };
  if (message.data.body.masked === 'masked')
    return { problem: 'its body was masked at export: sending it would send the masks' };
  return { message: message.data };
}
