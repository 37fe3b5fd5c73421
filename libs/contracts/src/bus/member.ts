import { z } from 'zod';
import { Instant } from '../common';

/**
 * Value of `studio_members[<service>.<installation>.<replica>]`: a replica of a service that owns clusters (scraper,
 * notifier), alive until `expiresAt` unless it beats again. Every replica of the service ranks the
 * live members the same way to find each cluster's preferred owner (issue 32, ADR-0016).
 */
export const MemberSchema = z.object({
  replica: z.string().min(1),
  joinedAt: Instant,
  expiresAt: Instant,
});
export type Member = z.infer<typeof MemberSchema>;

/**
 * The key of a replica's membership in `studio_members`: `<service>.<installation>.<replica>`. The
 * installation (its database's `studio_installation` id) keeps two Studios on one NATS apart.
 */
export const memberKey = (service: string, installation: string, replica: string): string =>
  `${service}.${installation}.${replica}`;
