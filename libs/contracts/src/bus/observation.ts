import { z } from 'zod';
import { Instant } from '../common';
import type { RawBrokerEvent } from './broker-event';

/**
 * Value of `studio_observations[<clusterId>]`: until when every live node of the cluster was
 * known to be subscribed to. The notifier that owns the cluster refreshes it while it observes
 * (`observing`), and writes the moment observation stopped when it knows it (a subscription lost,
 * a handover). A mark still `observing` whose owner is gone says that owner stopped without
 * saying so: a crash, or a cut-off replica.
 */
export const ObservationMarkSchema = z.object({
  observedUntil: Instant,
  observing: z.boolean(),
  owner: z.string().min(1).max(200),
  /** Why observation stopped, when it is known. */
  reason: z.string().max(500).optional(),
  /**
   * The owner lets the cluster go and observes until its successor's mark replaces this one:
   * a successor that subscribed before `observedUntil` missed nothing (ADR-0014).
   */
  handingOver: z.boolean().optional(),
});
export type ObservationMark = z.infer<typeof ObservationMarkSchema>;

/**
 * The type of the broker event the notifier records when it observes a cluster again after a
 * period in which it did not (ADR-0010). Artemis keeps no notification for an absent subscriber,
 * so what the broker sent then is not in the history: this record says where and how long.
 */
export const UNOBSERVED_EVENT_TYPE = 'STUDIO_NOTIFICATIONS_UNOBSERVED';

/** The `props` of an unobserved-period record; `from` is null when it could not be known. */
export const UnobservedPeriodSchema = z.object({
  from: Instant.nullable(),
  until: Instant,
  reason: z.string().max(500),
});
export type UnobservedPeriod = z.infer<typeof UnobservedPeriodSchema>;

/** The unobserved period an event records, or null when it is a broker notification. */
export function unobservedPeriod(event: Pick<RawBrokerEvent, 'type' | 'props'>): UnobservedPeriod | null {
  if (event.type !== UNOBSERVED_EVENT_TYPE) return null;
  const parsed = UnobservedPeriodSchema.safeParse(event.props);
  return parsed.success ? parsed.data : null;
}
