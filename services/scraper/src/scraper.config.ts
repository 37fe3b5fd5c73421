import type { NodeRollupResolution } from '@artemis-studio/db';
import { ClusterOwnerEnvSchema, parseEnv } from '@artemis-studio/platform';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const ScraperEnvSchema = ClusterOwnerEnvSchema.extend({
  /** The per-node call budget: Jolokia calls per second, polling and live reads alike. */
  SCRAPER_NODE_CALLS_PER_SECOND: z.coerce.number().positive().default(5),
  SCRAPER_SAMPLE_RETENTION_HOURS: z.coerce.number().positive().default(24),
  /**
   * How long each node's per-minute and per-hour rollups are kept (ADR-0020): a day longer than the
   * week and the month the console asks for, so those charts never straddle what was reaped.
   */
  SCRAPER_MINUTE_ROLLUP_RETENTION_DAYS: z.coerce.number().positive().default(8),
  SCRAPER_HOUR_ROLLUP_RETENTION_DAYS: z.coerce.number().positive().default(32),
  /** How long a resolved alert (with its delivery log) is kept. */
  SCRAPER_ALERT_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /** A PEM file of the CA that signed an internal SMTP relay's certificate, trusted beside the system's. */
  SCRAPER_SMTP_CA_FILE: z.string().min(1).optional(),
  /**
   * Where people open the console (its public URL): every notification links to its alert's page
   * there. Unset, notifications carry no link, since the scraper cannot know the address.
   */
  STUDIO_CONSOLE_URL: z.url({ protocol: /^https?$/ }).optional(),
});

export interface ScraperConfig {
  secretKey: string;
  nodeCallsPerSecond: number;
  leaseTtlMs: number;
  sampleRetentionHours: number;
  /** Per rollup resolution (seconds), how many days its rollups are kept. */
  rollupRetentionDays: ReadonlyMap<NodeRollupResolution, number>;
  alertRetentionDays: number;
  /** The extra CA for SMTP relays, read once at start; null when none is set. */
  smtpCa: string | null;
  /** The console's public URL, without a trailing slash; null when not set. */
  consoleUrl: string | null;
}

export const SCRAPER_CONFIG = Symbol('SCRAPER_CONFIG');

export function loadScraperConfig(env: NodeJS.ProcessEnv): ScraperConfig {
  const parsed = parseEnv(ScraperEnvSchema, env);
  return {
    secretKey: parsed.STUDIO_SECRET_KEY,
    nodeCallsPerSecond: parsed.SCRAPER_NODE_CALLS_PER_SECOND,
    leaseTtlMs: parsed.LEASE_TTL_MS,
    sampleRetentionHours: parsed.SCRAPER_SAMPLE_RETENTION_HOURS,
    rollupRetentionDays: new Map([
      [60, parsed.SCRAPER_MINUTE_ROLLUP_RETENTION_DAYS],
      [3600, parsed.SCRAPER_HOUR_ROLLUP_RETENTION_DAYS],
    ]),
    alertRetentionDays: parsed.SCRAPER_ALERT_RETENTION_DAYS,
    smtpCa: parsed.SCRAPER_SMTP_CA_FILE ? readFileSync(parsed.SCRAPER_SMTP_CA_FILE, 'utf8') : null,
    consoleUrl: parsed.STUDIO_CONSOLE_URL?.replace(/\/+$/, '') ?? null,
  };
}
