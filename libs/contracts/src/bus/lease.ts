import { z } from 'zod';
import { Instant } from '../common';

/**
 * Value of `studio_leases[<service>.<clusterId>]`: which replica of a service owns a cluster,
 * until when. The owner renews before `expiresAt`; any replica may take an expired lease over
 * with a compare-and-set on the entry's revision, so two replicas never both win it.
 */
export const LeaseSchema = z.object({
  owner: z.string().min(1),
  acquiredAt: Instant,
  expiresAt: Instant,
});
export type Lease = z.infer<typeof LeaseSchema>;

/** The key of a service's lease on a cluster in `studio_leases`: `<service>.<clusterId>`. */
export const leaseKey = (service: string, clusterId: string): string => `${service}.${clusterId}`;
