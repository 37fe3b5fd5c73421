import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A URL of one of `protocols`, with a host. */
const isUrl = (value: string, protocols: RegExp) => {
  try {
    const url = new URL(value);
    return protocols.test(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
};

/** What every service reads from its environment, once, at boot. */
export const BaseEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DATABASE_URL: z
    .string()
    .refine((v) => isUrl(v, /^postgres(ql)?:$/), 'must be a postgres://user@host:port/database URL')
    .default('postgres://postgres@127.0.0.1:5432/artemis_studio'),
  NATS_URL: z
    .string()
    .refine(
      (v) => v.split(',').every((server) => isUrl(server.trim(), /^(nats|tls|ws|wss):$/)),
      'must be one or more nats://host:port URLs, comma-separated',
    )
    .default('nats://127.0.0.1:4222'),
  /**
   * Copies NATS keeps of our stream and of every KV bucket: `auto` is 3 when the server is part
   * of a cluster (a node lost loses no event and no lease) and 1 on a single server.
   */
  NATS_REPLICAS: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(5)]).default('auto'),
  /**
   * Who this service is to NATS, when the server asks: a user of the installation's account
   * (NATS_USER and NATS_PASSWORD), or a decentralised `.creds` file (NATS_CREDS_FILE). One account
   * per installation is how several share one NATS (ADR-0031, docs/operations.md).
   */
  NATS_USER: z.string().min(1).max(200).optional(),
  NATS_PASSWORD: z.string().min(1).max(500).optional(),
  NATS_CREDS_FILE: z.string().min(1).optional(),
  /** Limits of the STUDIO_EVENTS stream, for whichever service creates it first. */
  STUDIO_EVENTS_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  STUDIO_EVENTS_MAX_MSGS: z.coerce.number().int().default(-1),
  /** How long a client may take to send a request's head, and the whole request (slowloris). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * Serve /healthz, /readyz and /metrics on this port only (and nothing else there), so the
   * public port behind an ingress never answers them. Unset: they are on PORT with the rest.
   */
  OPERATIONAL_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** How much is logged (JSON lines on stdout): fatal, error, warn, info, debug or trace. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `json` (one object a line, for containers and pipes) or `pretty` (time, level, service, message
   * and fields, for a person at a terminal). Unset: pretty when standard output is a terminal.
   */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /** Set to "false" to skip migrations at start (when a release job runs `npm run db:migrate`). */
  MIGRATE_ON_START: z.enum(['true', 'false']).default('true'),
});

/** The vault key: 32 random bytes, base64 (what `openssl rand -base64 32` prints). */
const SECRET_KEY_FORM = '32 random bytes, base64-encoded (openssl rand -base64 32)';
const SecretKeySchema = z
  .string({ error: `must be set: ${SECRET_KEY_FORM}` })
  .refine(
    (v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32,
    `must be ${SECRET_KEY_FORM}`,
  );

/** What a service that owns clusters by lease (scraper, notifier) reads besides the base. */
export const ClusterOwnerEnvSchema = BaseEnvSchema.extend({
  STUDIO_SECRET_KEY: SecretKeySchema,
  /** How long a cluster's lease lasts unrenewed: a dead owner is replaced within it. */
  LEASE_TTL_MS: z.coerce.number().int().min(1000).default(15_000),
  /**
   * This replica's name in the leases, unique among the service's replicas (the pod's name on
   * Kubernetes). Set, a crashed process restarted under the same name takes its leases back at
   * once instead of waiting out LEASE_TTL_MS. Two live processes must never share one.
   */
  STUDIO_REPLICA_ID: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/,
      'must be 1 to 200 letters, digits, dots, dashes or underscores',
    )
    .optional(),
});

/** What the gateway reads besides the base: the key that seals registered credentials. */
export const SecretKeyEnvSchema = BaseEnvSchema.extend({ STUDIO_SECRET_KEY: SecretKeySchema });

export interface ServiceConfig {
  /** The service's name: NATS client name, RPC queue group, database application name. */
  service: string;
  port: number;
  databaseUrl: string;
  natsUrl: string;
  natsReplicas: number | 'auto';
  /** The account's user or `.creds` file, read once at start; none when NATS asks nobody. */
  natsAuth: { user: string; pass: string } | { creds: Uint8Array } | undefined;
  migrateOnStart: boolean;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  eventsStream: { maxBytes: number; maxMsgs: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Everything wrong with the environment, one line per variable and problem, never a value (it may
 * be a secret): `invalid environment: DATABASE_URL: must be a postgres://… URL`.
 */
export function environmentProblems(schema: z.ZodType, env: NodeJS.ProcessEnv): string[] {
  const result = schema.safeParse(env);
  if (result.success) return [];
  return result.error.issues.map((i) => `invalid environment: ${i.path.join('.') || '(all)'}: ${i.message}`);
}

/**
 * Validates the environment and lists everything that is wrong at once (fail fast). A service
 * with extra settings passes its own schema extending BaseEnvSchema.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const problems = environmentProblems(schema, env);
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return schema.parse(env);
}

export function loadServiceConfig(
  service: string,
  defaultPort: number,
  env: NodeJS.ProcessEnv,
  stdoutIsTerminal = Boolean(process.stdout.isTTY),
): ServiceConfig {
  const parsed = parseEnv(BaseEnvSchema, env);
  return {
    service,
    port: parsed.PORT ?? defaultPort,
    databaseUrl: parsed.DATABASE_URL,
    natsUrl: parsed.NATS_URL,
    natsReplicas: parsed.NATS_REPLICAS,
    natsAuth: natsAuthOf(parsed),
    migrateOnStart: parsed.MIGRATE_ON_START === 'true',
    logLevel: parsed.LOG_LEVEL,
    logFormat: parsed.LOG_FORMAT ?? (stdoutIsTerminal ? 'pretty' : 'json'),
    eventsStream: { maxBytes: parsed.STUDIO_EVENTS_MAX_BYTES, maxMsgs: parsed.STUDIO_EVENTS_MAX_MSGS },
  };
}

/** Injection token of the ServiceConfig. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

function natsAuthOf(env: z.infer<typeof BaseEnvSchema>): ServiceConfig['natsAuth'] {
  if (env.NATS_CREDS_FILE)
    try {
      return { creds: readFileSync(env.NATS_CREDS_FILE) };
    } catch (err) {
      throw new ConfigError(`invalid environment: NATS_CREDS_FILE: ${(err as Error).message}`);
    }
  if (env.NATS_USER) return { user: env.NATS_USER, pass: env.NATS_PASSWORD ?? '' };
  return undefined;
}
