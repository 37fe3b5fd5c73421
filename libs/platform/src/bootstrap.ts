import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { z } from 'zod';
import { ConfigError, SERVICE_CONFIG, ServiceConfig, environmentProblems } from './config/service-config';

/** EX_CONFIG (sysexits.h): what a supervisor reads as "fix the configuration", not "restart me". */
const EXIT_CONFIG = 78;

/** Builds a service's Nest application (without listening): used by main.ts and by tests. */
export async function createServiceApp(
  rootModule: unknown,
  { quiet = false }: { quiet?: boolean } = {},
): Promise<INestApplication> {
  const app = await NestFactory.create(rootModule as never, {
    logger: quiet ? false : ['error', 'warn', 'log'],
  });
  app.enableShutdownHooks();
  return app;
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
  try {
    const app = await createServiceApp(rootModule);
    configure?.(app);
    const config = app.get<ServiceConfig>(SERVICE_CONFIG);
    await app.listen(config.port);
    new Logger(config.service).log(`listening on :${config.port}`);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }
}
