import { SecretKeyEnvSchema, parseEnv } from '@artemis-studio/platform';
import { AUTH_MODES, type AuthMode } from '@artemis-studio/contracts';
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
  /** Gzip the console's files (`off` where an ingress compresses them already). */
  CONSOLE_COMPRESSION: z.enum(['on', 'off']).default('on'),
  /**
   * `session` (the default): nothing but sign-in, health and metrics without a session or token.
   * `none` lets everyone in as an administrator: local development only, and the console says so.
   */
  AUTH_MODE: z.enum(AUTH_MODES).default('session'),
  /** The first admin's password, used only when no user exists yet; otherwise one is generated and logged once. */
  STUDIO_ADMIN_PASSWORD: z.preprocess(
    // Compose passes an unset variable as empty: that is "generate one", not a too-short password.
    (v) => (v === '' ? undefined : v),
    z.string().min(12, 'must be at least 12 characters').max(1000).optional(),
  ),
  /** A session unused this long ends; one older than the maximum ends whatever its use. */
  AUTH_SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(8 * 60),
  AUTH_SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(90 * 24)
    .default(24),
  /**
   * Where people reach the console (`https://studio.example.com`): the origin a mutating request
   * must come from, besides the gateway's own host. Comma-separated for several.
   */
  STUDIO_PUBLIC_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const origins = (v ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const origin of origins) {
        if (!URL.canParse(origin) || new URL(origin).origin !== origin)
          ctx.addIssue({
            code: 'custom',
            message: 'each must be an origin such as https://studio.example.com',
          });
      }
      return origins;
    }),
  /** OpenID Connect: set the issuer to offer "Sign in with …"; client id, secret and redirect URL go with it. */
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** The gateway's callback as registered at the provider: `https://studio.example.com/api/v1/auth/oidc/callback`. */
  OIDC_REDIRECT_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The ID-token claim holding the user's groups (a string array), matched against group grants. */
  OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
  OIDC_SCOPES: z.string().min(1).default('openid profile email'),
  /** What the sign-in button says: "Sign in with {OIDC_NAME}". */
  OIDC_NAME: z.string().min(1).max(60).default('single sign-on'),
}).superRefine((env, ctx) => {
  if (!env.OIDC_ISSUER) return;
  for (const key of ['OIDC_CLIENT_ID', 'OIDC_REDIRECT_URL'] as const) {
    if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when OIDC_ISSUER is set' });
  }
});

export interface GatewayConfig {
  secretKey: string;
  sendBounds: { maxBufferedBytes: number; maxLagMs: number };
  streamLimits: { total: number; perAddress: number };
  trustProxyHops: number;
  webDist?: string;
  consoleCompression: boolean;
  access: AccessConfig;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  redirectUrl: string;
  groupsClaim: string;
  scopes: string;
  name: string;
}

export interface AccessConfig {
  mode: AuthMode;
  adminPassword?: string;
  sessionIdleMs: number;
  sessionMaxMs: number;
  publicOrigins: string[];
  oidc: OidcConfig | null;
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

export function loadGatewayConfig(env: NodeJS.ProcessEnv): GatewayConfig {
  const parsed = parseEnv(GatewayEnvSchema, env);
  return {
    secretKey: parsed.STUDIO_SECRET_KEY,
    sendBounds: { maxBufferedBytes: parsed.SSE_CLIENT_BUFFER_BYTES, maxLagMs: parsed.SSE_CLIENT_MAX_LAG_MS },
    streamLimits: { total: parsed.SSE_MAX_STREAMS, perAddress: parsed.SSE_MAX_STREAMS_PER_ADDRESS },
    trustProxyHops: parsed.HTTP_TRUST_PROXY_HOPS,
    webDist: parsed.WEB_DIST,
    consoleCompression: parsed.CONSOLE_COMPRESSION === 'on',
    access: {
      mode: parsed.AUTH_MODE,
      adminPassword: parsed.STUDIO_ADMIN_PASSWORD,
      sessionIdleMs: parsed.AUTH_SESSION_IDLE_MINUTES * 60_000,
      sessionMaxMs: parsed.AUTH_SESSION_MAX_HOURS * 3_600_000,
      publicOrigins: parsed.STUDIO_PUBLIC_ORIGINS,
      oidc:
        parsed.OIDC_ISSUER && parsed.OIDC_CLIENT_ID && parsed.OIDC_REDIRECT_URL
          ? {
              issuer: parsed.OIDC_ISSUER,
              clientId: parsed.OIDC_CLIENT_ID,
              clientSecret: parsed.OIDC_CLIENT_SECRET,
              redirectUrl: parsed.OIDC_REDIRECT_URL,
              groupsClaim: parsed.OIDC_GROUPS_CLAIM,
              scopes: parsed.OIDC_SCOPES,
              name: parsed.OIDC_NAME,
            }
          : null,
    },
  };
}
