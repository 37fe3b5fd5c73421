import { z } from 'zod';
import { Instant } from '../common';

/** Value of `studio_leases[<service>.<clusterId>]`: which replica owns a cluster for a service. */
export const LeaseSchema = z.object({
  owner: z.string().min(1),
  acquiredAt: Instant,
});
export type Lease = z.infer<typeof LeaseSchema>;
