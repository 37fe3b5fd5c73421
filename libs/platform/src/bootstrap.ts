import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Express } from 'express';
import { Logger as PinoLogger } from 'nestjs-pino';
import type { z } from 'zod';
import {
  BaseEnvSchema,
  ConfigError,
  SERVICE_CONFIG,
  ServiceConfig,
  environmentProblems,
} from './config/service-config';
import { GuardedExpressAdapter, type HttpTimeouts } from './http/guarded-express-adapter';
import { splitOperationalPort } from './http/operational-port';
import { requestId } from './http/request-id';

/** What a service's HTTP server allows a client, unless the environment says otherwise. */
const DEFAULT_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/** EX_CONFIG (sysexits.h): what a supervisor reads as "fix the configuration", not "restart me". */
const EXIT_CONFIG = 78;

/** Builds a service's Nest application (without listening): used by main.ts and by tests. */
export async function createServiceApp(
  rootModule: unknown,
  { quiet = false, timeouts = DEFAULT_TIMEOUTS }: { quiet?: boolean; timeouts?: HttpTimeouts } = {},
): Promise<INestApplication> {
  const app = await NestFactory.create(rootModule as never, new GuardedExpressAdapter(timeouts), {
    logger: quiet ? false : undefined,
    // Lines logged while Nest starts wait for the JSON logger, so every line is JSON.
    bufferLogs: !quiet,
  });
  if (!quiet) app.useLogger(app.get(PinoLogger));
  // Before every route: each request's id, in its log lines and its answer's X-Request-Id.
  (app.getHttpAdapter().getInstance() as Express).use(requestId);
  return app;
}

/**
 * SIGTERM and SIGINT close the app (every shutdown hook: handovers, drains), then end the process.
 * Nest's own shutdown hooks re-raise the signal once closed, and that ends nothing where the
 * service runs: node is PID 1 in its container, and the kernel ignores a signal PID 1 has no
 * handler for. The process then lived on until its last socket ended by itself (a frozen broker's
 * AMQP connection: 30 s), and the container was killed at its stop grace period (exit 137).
 */
function closeOnSignal(app: INestApplication, logger: Logger): void {
  const signals = ['SIGTERM', 'SIGINT'] as const;
  const close = (signal: NodeJS.Signals) => {
    signals.forEach((s) => process.removeListener(s, close));
    const started = Date.now();
    logger.log(`${signal}: stopping`);
    app.close().then(
      () => {
        logger.log(`stopped in ${Date.now() - started} ms`);
        process.exit(0);
      },
      (err: unknown) => {
        logger.error(`stopping failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  signals.forEach((s) => process.once(s, close));
}

/**
 * main.ts of every service: the whole environment is validated before anything starts, and a bad
 * one exits 78 with one line per problem and nothing else; then boot and listen.
 */
export async function bootstrapService(
  rootModule: unknown,
  { env, configure }: { env: z.ZodType; configure?: (app: INestApplication) => void },
): Promise<void> {
  const problems = environmentProblems(env, process.env);
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exit(EXIT_CONFIG);
  }
  const base = BaseEnvSchema.parse(process.env);
  try {
    const app = await createServiceApp(rootModule, {
      timeouts: { headersMs: base.HTTP_HEADERS_TIMEOUT_MS, requestMs: base.HTTP_REQUEST_TIMEOUT_MS },
    });
    const listenOperational =
      base.OPERATIONAL_PORT === undefined ? undefined : splitOperationalPort(app, base.OPERATIONAL_PORT);
    configure?.(app);
    const config = app.get<ServiceConfig>(SERVICE_CONFIG);
    const logger = new Logger(config.service);
    closeOnSignal(app, logger);
    await app.listen(config.port);
    listenOperational?.();
    logger.log(
      `listening on :${config.port}${base.OPERATIONAL_PORT ? `, health and metrics on :${base.OPERATIONAL_PORT}` : ''}`,
    );
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }
}
