import { SecretKeyEnvSchema, parseEnv } from '@artemis-studio/platform';
import { z } from 'zod';

export const GatewayEnvSchema = SecretKeyEnvSchema.extend({
  /** Unsent bytes past which a stream client is cut off at once. */
  SSE_CLIENT_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(8 * 1024 * 1024),
  /** How long a stream client's backlog may last before it is cut off as too slow. */
  SSE_CLIENT_MAX_LAG_MS: z.coerce.number().int().min(100).default(10_000),
  /** The built console to serve (web/dist), when present. */
  WEB_DIST: z.string().optional(),
});

export interface GatewayConfig {
  secretKey: string;
  sendBounds: { maxBufferedBytes: number; maxLagMs: number };
  webDist?: string;
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

/**
 * How long a request waits for PostgreSQL before it is answered 503: while the database is away
 * the console says so at once instead of hanging on every screen.
 */
export const DATABASE_WAIT_MS = 50;

export function loadGatewayConfig(env: NodeJS.ProcessEnv): GatewayConfig {
  const parsed = parseEnv(GatewayEnvSchema, env);
  return {
    secretKey: parsed.STUDIO_SECRET_KEY,
    sendBounds: { maxBufferedBytes: parsed.SSE_CLIENT_BUFFER_BYTES, maxLagMs: parsed.SSE_CLIENT_MAX_LAG_MS },
    webDist: parsed.WEB_DIST,
  };
}
