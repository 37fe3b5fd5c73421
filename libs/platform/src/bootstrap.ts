import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, SERVICE_CONFIG, ServiceConfig } from './config/service-config';

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

/** main.ts of every service: boot, listen, and exit listing what is wrong with the configuration. */
export async function bootstrapService(
  rootModule: unknown,
  configure?: (app: INestApplication) => void,
): Promise<void> {
  try {
    const app = await createServiceApp(rootModule);
    configure?.(app);
    const config = app.get<ServiceConfig>(SERVICE_CONFIG);
    await app.listen(config.port);
    new Logger(config.service).log(`listening on :${config.port}`);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
