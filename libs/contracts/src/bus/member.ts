import { z } from 'zod';
import { Instant } from '../common';

/**
 * Value of `studio_members[<service>.<installation>.<replica>]`: a replica of a service that owns clusters (scraper,
 * notifier), alive until `expiresAt` unless it beats again. Every replica of the service ranks the
 * live members the same way to find each cluster's preferred owner (issue 32, ADR-0016). Every
 * service also says it is present, under `<service>-presence`, so that a second installation on
 * the same NATS finds it and refuses to start (ADR-0031).
 */
export const MemberSchema = z.object({
  replica: z.string().min(1),
  joinedAt: Instant,
  expiresAt: Instant,
  /** Where the member's installation keeps its state (host and database), for the refusal's words. */
  database: z.string().max(500).optional(),
});
export type Member = z.infer<typeof MemberSchema>;

/**
 * The key of a replica's membership in `studio_members`: `<service>.<installation>.<replica>`. The
 * installation (its database's `studio_installation` id) keeps two Studios on one NATS apart.
 */
export const memberKey = (service: string, installation: string, replica: string): string =>
  `${service}.${installation}.${replica}`;
