import type { DynamicModule } from '@nestjs/common';

/**
 * A service's own configuration, read once from the environment at start and injectable under
 * `token` in every feature module (global), so no feature reads `process.env` itself.
 */
export function serviceConfigModule<T>(token: symbol, load: (env: NodeJS.ProcessEnv) => T): DynamicModule {
  class ServiceConfigModule {}
  return {
    module: ServiceConfigModule,
    global: true,
    providers: [{ provide: token, useFactory: () => load(process.env) }],
    exports: [token],
  };
}
