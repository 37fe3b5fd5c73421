import { z } from 'zod';

/** What every service reads from its environment, once, at boot. */
export const BaseEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .default('postgres://postgres@127.0.0.1:5432/artemis_studio'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  /** Limits of the STUDIO_EVENTS stream, for whichever service creates it first. */
  STUDIO_EVENTS_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  STUDIO_EVENTS_MAX_MSGS: z.coerce.number().int().default(-1),
  /** Set to "false" to skip migrations at start (when a release job runs `npm run db:migrate`). */
  MIGRATE_ON_START: z.enum(['true', 'false']).default('true'),
});

export interface ServiceConfig {
  /** The service's name: NATS client name, RPC queue group, database application name. */
  service: string;
  port: number;
  databaseUrl: string;
  natsUrl: string;
  migrateOnStart: boolean;
  eventsStream: { maxBytes: number; maxMsgs: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates the environment and lists everything that is wrong at once (fail fast). A service
 * with extra settings passes its own schema extending BaseEnvSchema.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new ConfigError(`invalid environment:\n${problems}`);
  }
  return result.data;
}

export function loadServiceConfig(
  service: string,
  defaultPort: number,
  env: NodeJS.ProcessEnv,
): ServiceConfig {
  const parsed = parseEnv(BaseEnvSchema, env);
  return {
    service,
    port: parsed.PORT ?? defaultPort,
    databaseUrl: parsed.DATABASE_URL,
    natsUrl: parsed.NATS_URL,
    migrateOnStart: parsed.MIGRATE_ON_START === 'true',
    eventsStream: { maxBytes: parsed.STUDIO_EVENTS_MAX_BYTES, maxMsgs: parsed.STUDIO_EVENTS_MAX_MSGS },
  };
}

/** Injection token of the ServiceConfig. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
