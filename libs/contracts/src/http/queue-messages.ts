import { z } from 'zod';
import { Instant, Uuid } from '../common';
import { BodyFilterCall, BodyFilterQuery, BodyFilterSchema, BodyScanSchema } from './body-filters';

/** How many messages one page of a browse holds at most: the broker rescans from the head for each. */
export const BROWSE_PAGE_SIZE_MAX = 100;

/** `GET …/queues/{queue}/messages`: one page of a queue's messages on one node, optionally filtered. */
export const QueueMessagesQuerySchema = z
  .object({
    /** The node to read; the first live node holding the queue when absent. */
    node: z.string().min(1).max(200).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(BROWSE_PAGE_SIZE_MAX).default(50),
    /** An Artemis filter expression (selector syntax); the broker's own error is answered when it is invalid. */
    filter: z.string().max(2000).optional(),
    /** A body filter, read by the owner on each message the broker's filter lets through (ADR-0038). */
    ...BodyFilterQuery,
  })
  .strict();
export type QueueMessagesQuery = z.infer<typeof QueueMessagesQuerySchema>;

const PropertyValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const MESSAGE_TYPES = ['default', 'object', 'text', 'bytes', 'map', 'stream', 'unknown'] as const;

/** The Java type the broker keeps a property as (the map `browse` lists it in). */
export const BROWSED_PROPERTY_TYPES = [
  'string',
  'long',
  'int',
  'short',
  'byte',
  'boolean',
  'double',
  'float',
] as const;
export type BrowsedPropertyType = (typeof BROWSED_PROPERTY_TYPES)[number];

export const BrowsedMessageSchema = z.object({
  /** The broker's id on this node: a move or a retry gives the message a new one. */
  messageId: z.string(),
  userId: z.string().nullable(),
  type: z.enum(MESSAGE_TYPES),
  protocol: z.string().nullable(),
  address: z.string().nullable(),
  durable: z.boolean(),
  priority: z.number().int(),
  redelivered: z.boolean(),
  largeMessage: z.boolean(),
  persistentSize: z.number().int().nullable(),
  /** When it was sent, as its producer stamped it; null when it carries no time. */
  timestamp: Instant.nullable(),
  expiration: Instant.nullable(),
  /** Every property as the broker typed it, names as the broker gives them (`applicationProperties.x`). */
  properties: z.record(z.string(), PropertyValue),
  /** Each property's type on the broker, so a resend can keep it (absent from older answers). */
  propertyTypes: z.record(z.string(), z.enum(BROWSED_PROPERTY_TYPES)).default({}),
  body: z.object({
    /** The body as the broker shows it (as `encoding` says); null when it shows none. */
    preview: z.string().nullable(),
    /** `text` as the message carries it, or `base64` of the bytes of a bytes body. */
    encoding: z.enum(['text', 'base64']).default('text'),
    /**
     * Not the whole body: cut by the broker at its management attribute size limit, or not shown at
     * all (a large message's body stays in its file).
     */
    truncated: z.boolean(),
    /** How much the broker left out, as it counted it. */
    omitted: z.number().int().nonnegative().nullable(),
    /**
     * The cluster's masking rules changed it (`masked`), or withheld it whole (`withheld`: it is
     * not JSON, or is cut, so its body paths could not be applied); null when untouched.
     */
    masked: z.enum(['masked', 'withheld']).nullable().default(null),
  }),
});
export type BrowsedMessage = z.infer<typeof BrowsedMessageSchema>;

export const QueueMessagesPageSchema = z.object({
  clusterId: Uuid,
  queue: z.string(),
  node: z.string(),
  /** Every live node holding the queue, to choose another from. */
  nodes: z.array(z.string()),
  page: z.number().int(),
  pageSize: z.number().int(),
  filter: z.string().nullable(),
  messages: z.array(BrowsedMessageSchema),
  /** The queue's depth on the node (MessageCount): every message, paged ones included. */
  depth: z.number().int().nonnegative().nullable(),
  /**
   * With a filter, how many match as the broker counted them; `atLeast` when the queue holds more
   * than the broker looks at for a count (`management-browse-page-size`), so the true number may
   * be larger.
   */
  matched: z.object({ count: z.number().int().nonnegative(), atLeast: z.boolean() }).nullable(),
  /** The broker reads no further than this many messages for a browse or a filtered count. */
  browseLimit: z.number().int().positive().nullable(),
  /** The body filter the page was read with, and what its scan found (`matched` is then its count). */
  bodyFilter: BodyFilterSchema.nullable().default(null),
  bodyScan: BodyScanSchema.nullable().default(null),
  /**
   * Set while the reader's break-glass window on this queue is open (unmasked-windows.ts): the
   * page is not masked, and its messages' ids are audited. When it ends.
   */
  unmaskedUntil: Instant.optional(),
});
export type QueueMessagesPage = z.infer<typeof QueueMessagesPageSchema>;

/** The owner RPC's request. */
export const QueueBrowseCallSchema = QueueMessagesQuerySchema.extend({
  clusterId: Uuid,
  queue: z.string().min(1).max(1000),
  ...BodyFilterCall,
}).strict();
export type QueueBrowseCall = z.infer<typeof QueueBrowseCallSchema>;
