import { z } from 'zod';

const millis = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * Runtime-overridable settings (brief, "Settings"): the default applies until a row in
 * `studio_setting` overrides it, and every reader picks a change up without a restart.
 */
export const SETTINGS = {
  'artemis-studio.events.coalesce-window-millis': { schema: millis(10, 60_000), default: 1000 },
  /** Upper bound on how long a broker event waits before it is written, in milliseconds. */
  'artemis-studio.events.flush': { schema: millis(10, 60_000), default: 1000 },
  'artemis-studio.events.buffer-size': { schema: z.number().int().min(1).max(1_000_000), default: 10_000 },
  'artemis-studio.events.retention-hours': {
    schema: z
      .number()
      .int()
      .min(1)
      .max(24 * 365),
    default: 72,
  },
  'artemis-studio.stream.heartbeat-millis': { schema: millis(1000, 300_000), default: 20_000 },
  'artemis-studio.stream.replay-cap': { schema: z.number().int().min(0).max(500), default: 500 },
  'artemis-studio.scrape.tier-a-millis': { schema: millis(1000, 3_600_000), default: 5000 },
  'artemis-studio.scrape.tier-b-millis': { schema: millis(1000, 3_600_000), default: 15_000 },
} as const satisfies Record<string, { schema: z.ZodType<number>; default: number }>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

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
