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

/**
 * `POST …/queues/{queue}/messages` (or `…/addresses/{address}/messages`): one message, sent by the
 * broker itself (a Core message; every header becomes a String property), to the queue, or to the
 * address and so every queue bound to it, on one node.
 */
export const SendMessageRequestSchema = z
  .object({
    /** Text, or the bytes in Base64 with `bodyEncoding: 'base64'`. */
    body: z.string().max(1024 * 1024),
    bodyEncoding: z.enum(['text', 'base64']).default('text'),
    headers: z.record(z.string().min(1).max(200), z.string().max(10_000)).default({}),
    durable: z.boolean().default(true),
    /** The node to send on; the first live node holding the queue when absent. */
    node: z.string().min(1).max(200).optional(),
  })
  .strict();
export type SendMessageRequest = z.infer<typeof SendMessageRequestSchema>;

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
