import { z } from 'zod';

const millis = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * Runtime-overridable settings (brief, "Settings"): the default applies until a row in
 * `studio_setting` overrides it, and every reader picks a change up without a restart.
 */
export const SETTINGS = {
  'artemis-studio.events.coalesce-window-millis': {
    schema: millis(10, 60_000),
    default: 1000,
    unit: 'ms',
    description:
      'The notifier sends at most one consumers, sessions, connections or queues signal per cluster in this window, however many notifications imply it.',
  },
  'artemis-studio.events.flush': {
    schema: millis(10, 60_000),
    default: 1000,
    unit: 'ms',
    description: 'The longest a broker event waits in the event store before it is written.',
  },
  'artemis-studio.events.buffer-size': {
    schema: z.number().int().min(1).max(1_000_000),
    default: 10_000,
    unit: 'events',
    description: 'Events the event store holds while writing; beyond it, events are counted as dropped.',
  },
  'artemis-studio.events.retention-hours': {
    schema: z
      .number()
      .int()
      .min(1)
      .max(24 * 365),
    default: 72,
    unit: 'h',
    description:
      'How long broker events stay in the history. Whole days are removed, so an event stays up to a day longer.',
  },
  'artemis-studio.audit.retention-days': {
    schema: z.number().int().min(1).max(3650),
    default: 365,
    unit: 'days',
    description: 'How long the audit trail keeps each sign-in and change before it is reaped.',
  },
  'artemis-studio.stream.heartbeat-millis': {
    schema: millis(1000, 300_000),
    default: 20_000,
    unit: 'ms',
    description:
      'How often every live stream gets a ping; the console counts a stream silent for about twice this as dead and reconnects.',
  },
  'artemis-studio.stream.replay-cap': {
    schema: z.number().int().min(0).max(500),
    default: 500,
    unit: 'events',
    description:
      'The most missed events a reconnecting stream is sent; a larger gap is announced, and the rest stays in the history.',
  },
  'artemis-studio.notifications.ring-size': {
    schema: z.number().int().min(0).max(10_000_000),
    default: 100_000,
    unit: 'notifications',
    description:
      "The bound of Studio's durable ring of notifications on each live node: what it keeps while no notifier reads it (a crash, a restart), the oldest discarded first and counted as dropped. About 10 minutes of a broker sending 170 a second. A full ring costs the broker's heap about 3 KB a notification (100,000 held about 300 MB on Artemis 2.40): keep it well inside the broker's global-max-size. 0: no ring, and a notifier crash loses what the broker sent meanwhile.",
  },
  'artemis-studio.scrape.tier-a-millis': {
    schema: millis(1000, 3_600_000),
    default: 5000,
    unit: 'ms',
    description:
      "How often the scraper reads each node's topology, HA role and health; every half second for 10 s after a live node stops answering, to see a backup take over.",
  },
  'artemis-studio.scrape.tier-b-millis': {
    schema: millis(1000, 3_600_000),
    default: 15_000,
    unit: 'ms',
    description: 'How often the scraper reads every queue of each node.',
  },
  'artemis-studio.metrics.queues-per-cluster': {
    schema: z.number().int().min(0).max(100_000),
    default: 500,
    unit: 'queues',
    description:
      "How many queues, and how many addresses, of each cluster the scraper's /metrics exports for Prometheus, the deepest and the largest first; the rest are counted in studio_queues_not_exported and studio_addresses_not_exported.",
  },
  'artemis-studio.messages.unmasked-max-minutes': {
    schema: z.number().int().min(1).max(1440),
    default: 60,
    unit: 'min',
    description:
      "The longest an administrator may open one queue's unmasked message bodies for (break-glass access): each message seen meanwhile is audited by id, and the masking returns by itself when it ends.",
  },
  'artemis-studio.console.poll-floor-millis': {
    schema: millis(1000, 300_000),
    default: 5000,
    unit: 'ms',
    description: 'How often the console refetches a screen while its live stream is down.',
  },
} as const satisfies Record<
  string,
  { schema: z.ZodType<number>; default: number; unit: string; description: string }
>;

export type SettingKey = keyof typeof SETTINGS;

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTINGS, key);
}

export const SettingSchema = z.object({
  key: z.string(),
  value: z.number(),
  default: z.number(),
  source: z.enum(['default', 'override']),
});
export type Setting = z.infer<typeof SettingSchema>;

export const PutSettingRequestSchema = z.object({ value: z.number() }).strict();
export type PutSettingRequest = z.infer<typeof PutSettingRequestSchema>;
