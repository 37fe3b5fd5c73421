import { z } from 'zod';
import { Instant, Uuid } from '../common';

const LiveNodeSchema = z.object({
  name: z.string().min(1),
  jolokiaUrl: z.url(),
  /** Null when the node has no dialable AMQP URL: the notifier states that as a capability gap. */
  amqpUrl: z.url().nullable(),
});
export type LiveNode = z.infer<typeof LiveNodeSchema>;

/** Value of `studio_live_nodes[<clusterId>]`: who is live now, as the brokers said at `asOf`. */
export const LiveNodeSetSchema = z.object({
  clusterId: Uuid,
  asOf: Instant,
  nodes: z.array(LiveNodeSchema),
});
export type LiveNodeSet = z.infer<typeof LiveNodeSetSchema>;
