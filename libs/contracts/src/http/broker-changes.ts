import { z } from 'zod';
import { Instant, Uuid } from '../common';
import { NodeActionResultSchema } from './queue-actions';

const Name = z.string().min(1).max(1000);
const ROUTING_TYPES = ['ANYCAST', 'MULTICAST'] as const;

/** `POST …/queues`: a queue on every live node (each node's outcome is answered). */
export const CreateQueueRequestSchema = z
  .object({
    name: Name,
    /** The address it binds to; the queue's own name when absent. */
    address: Name.optional(),
    routingType: z.enum(ROUTING_TYPES).default('ANYCAST'),
    durable: z.boolean().default(true),
    /** Only messages matching this filter (the broker's selector syntax) are routed to it. */
    filter: z.string().max(2000).optional(),
    /** -1 for no limit. */
    maxConsumers: z.number().int().min(-1).max(1_000_000).default(-1),
    purgeOnNoConsumers: z.boolean().default(false),
  })
  .strict();
export type CreateQueueRequest = z.infer<typeof CreateQueueRequestSchema>;

/** `POST …/addresses`: an address on every live node (administrators). */
export const CreateAddressRequestSchema = z
  .object({ name: Name, routingTypes: z.array(z.enum(ROUTING_TYPES)).min(1).max(2).default(['ANYCAST']) })
  .strict();
export type CreateAddressRequest = z.infer<typeof CreateAddressRequestSchema>;

/** `DELETE …/addresses/{address}?removeQueues=true`: refused while queues are bound, unless asked. */
export const DeleteAddressQuerySchema = z
  .object({ removeQueues: z.enum(['true', 'false']).optional() })
  .strict();
export type DeleteAddressQuery = z.infer<typeof DeleteAddressQuerySchema>;

export const PROPERTY_TYPES = ['string', 'long', 'int', 'double', 'boolean'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/** Why `value` is not a `type`, or null: longs and ints whole and in range, doubles finite. */
export function propertyValueProblem(type: PropertyType, value: string): string | null {
  switch (type) {
    case 'string':
      return null;
    case 'boolean':
      return value === 'true' || value === 'false' ? null : 'a boolean is true or false';
    case 'double':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? null : 'a double is a finite number';
    case 'int':
      return /^-?\d{1,10}$/.test(value) && Number(value) >= -(2 ** 31) && Number(value) < 2 ** 31
        ? null
        : 'an int is a whole number from -2147483648 to 2147483647';
    case 'long':
      return /^-?\d{1,19}$/.test(value) && BigInt(value) >= INT64.min && BigInt(value) <= INT64.max
        ? null
        : 'a long is a whole number of at most 64 bits';
  }
}

/** A message property with its type: what an application reads with getLongProperty and the like. */
export const TypedPropertySchema = z
  .object({
    name: z.string().min(1).max(200),
    type: z.enum(PROPERTY_TYPES),
    /** As text: `42`, `1.5`, `true`; checked against the type. */
    value: z.string().max(10_000),
  })
  .strict()
  .superRefine((p, ctx) => {
    const problem = propertyValueProblem(p.type, p.value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: `${p.name}: ${problem}` });
  });
export type TypedProperty = z.infer<typeof TypedPropertySchema>;

/**
 * `POST …/queues/{queue}/messages` (or `…/addresses/{address}/messages`): one message, to the
 * queue, or to the address and so every queue bound to it, on one node. With `headers` only it is
 * sent by the broker itself (a Core message; every header a String property); with typed
 * `properties` or a `routingType` it is sent over AMQP 1.0 by the cluster's owner (management
 * cannot send a property that is not a String), as an application would.
 */
export const SendMessageRequestSchema = z
  .object({
    /** Text, or the bytes in Base64 with `bodyEncoding: 'base64'`. */
    body: z.string().max(1024 * 1024),
    bodyEncoding: z.enum(['text', 'base64']).default('text'),
    headers: z.record(z.string().min(1).max(200), z.string().max(10_000)).default({}),
    properties: z.array(TypedPropertySchema).max(200).default([]),
    /** To an address: to its anycast or its multicast queues only (an address with both). */
    routingType: z.enum(ROUTING_TYPES).optional(),
    durable: z.boolean().default(true),
    /** The node to send on; the first live node holding the queue when absent. */
    node: z.string().min(1).max(200).optional(),
  })
  .strict();
export type SendMessageRequest = z.infer<typeof SendMessageRequestSchema>;

/** Whether the message goes over AMQP: it carries what management cannot send. */
export const sentOverAmqp = (message: SendMessageRequest): boolean =>
  message.properties.length > 0 || message.routingType !== undefined;

/** What the owner is asked to change: one of the requests above, with what it names. */
export const BrokerChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('create-queue'), queue: CreateQueueRequestSchema }),
  z.object({ kind: z.literal('create-address'), address: CreateAddressRequestSchema }),
  z.object({ kind: z.literal('delete-address'), name: Name, removeQueues: z.boolean() }),
  z.object({ kind: z.literal('send'), queue: Name, message: SendMessageRequestSchema }),
  /** Sent to the address: routed, as a producer's would be, to every queue bound to it. */
  z.object({ kind: z.literal('send-to-address'), address: Name, message: SendMessageRequestSchema }),
]);
export type BrokerChange = z.infer<typeof BrokerChangeSchema>;

export const BrokerChangeCallSchema = z.object({ clusterId: Uuid, change: BrokerChangeSchema });
export type BrokerChangeCall = z.infer<typeof BrokerChangeCallSchema>;

export const BrokerChangeResultSchema = z.object({
  clusterId: Uuid,
  kind: z.enum(['create-queue', 'create-address', 'delete-address', 'send', 'send-to-address']),
  /** The queue or address changed. */
  target: z.string(),
  nodes: z.array(NodeActionResultSchema),
  at: Instant,
});
export type BrokerChangeResult = z.infer<typeof BrokerChangeResultSchema>;
