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
});
export type CapabilityVerdict = z.infer<typeof CapabilityVerdictSchema>;
