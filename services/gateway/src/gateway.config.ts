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
  /** Streams one replica holds at most, and from one client address. */
  SSE_MAX_STREAMS: z.coerce.number().int().min(1).default(20_000),
  SSE_MAX_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).default(500),
  /**
   * Proxies in front of the gateway whose X-Forwarded-For is believed (Express "trust proxy"
   * hops): behind an ingress, 1, so the per-address limit counts clients, not the ingress.
   */
  HTTP_TRUST_PROXY_HOPS: z.coerce.number().int().min(0).default(0),
  /** The built console to serve (web/dist), when present. */
  WEB_DIST: z.string().optional(),
});

export interface GatewayConfig {
  secretKey: string;
  sendBounds: { maxBufferedBytes: number; maxLagMs: number };
  streamLimits: { total: number; perAddress: number };
  trustProxyHops: number;
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
    streamLimits: { total: parsed.SSE_MAX_STREAMS, perAddress: parsed.SSE_MAX_STREAMS_PER_ADDRESS },
    trustProxyHops: parsed.HTTP_TRUST_PROXY_HOPS,
    webDist: parsed.WEB_DIST,
  };
}
