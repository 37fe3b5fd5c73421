import { z } from 'zod';
import { Instant, Uuid } from '../common';

/** A change to a cluster's registration, published by the gateway that made it. */
export const ClusterChangeSchema = z.object({
  clusterId: Uuid,
  change: z.enum(['registered', 'changed', 'removed']),
  ts: Instant,
});
export type ClusterChange = z.infer<typeof ClusterChangeSchema>;
