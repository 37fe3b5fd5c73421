import { z } from 'zod';
import { Instant, Uuid } from '../common';
import { SIGNAL_TOPICS } from '../topics';

/** A change signal (ADR-0018): "refetch this", never the data itself. */
export const SignalSchema = z.object({
  topic: z.enum(SIGNAL_TOPICS),
  clusterId: Uuid,
  ts: Instant,
});
export type Signal = z.infer<typeof SignalSchema>;
