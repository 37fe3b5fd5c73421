import { z } from 'zod';
import { Instant } from '../common';
import { ALERT_STATES, AlertSchema } from '../http/alerts';

/**
 * `studio.v1.alerts.<clusterId>.<state>`: one alert's transition, as it was committed. Pending is
 * published too (other tools may want to see an alert coming); receivers only get firing and
 * resolved.
 */
export const AlertTransitionSchema = z.object({
  state: z.enum(ALERT_STATES),
  at: Instant,
  alert: AlertSchema,
});
export type AlertTransition = z.infer<typeof AlertTransitionSchema>;
