import { z } from 'zod';
import { Instant } from '../common';

const CapabilityStatusSchema = z.enum(['AVAILABLE', 'UNAVAILABLE', 'UNKNOWN']);
export type CapabilityStatus = z.infer<typeof CapabilityStatusSchema>;

/**
 * Value of `studio_capabilities[<clusterId>]`: the notification capability as of the notifier's
 * last reconcile; read from the cache, never from a live probe (ADR-0026).
 */
export const CapabilityVerdictSchema = z.object({
  status: CapabilityStatusSchema,
  reason: z.string(),
  asOf: Instant,
  /** The broker.xml that closes the gap (or, when AVAILABLE, the plugin that feeds the stream). */
  snippet: z.string().optional(),
  /**
   * How the notifications are read when AVAILABLE: `durable` from Studio's ring on every live node,
   * which keeps them while no notifier reads (ADR-0015); `non-durable` from subscriptions that
   * end with their connection, so a notifier crash loses what the broker sent meanwhile.
   */
  mode: z.enum(['durable', 'non-durable']).optional(),
});
export type CapabilityVerdict = z.infer<typeof CapabilityVerdictSchema>;
