import { bootstrapService } from '@artemis-studio/platform';
import { Logger } from '@nestjs/common';
import compression from 'compression';
import express, { type Express } from 'express';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GatewayModule } from './app.module';
import { GATEWAY_CONFIG, GatewayEnvSchema, type GatewayConfig } from './gateway.config';
import { securityHeaders } from './http/security-headers';

/** The built console (web/dist), when there is one: served beside the API, every other path to index.html. */
function serveConsole(app: Express, webDist: string | undefined, compress: boolean): void {
  const dist = resolve(webDist ?? join(__dirname, '..', '..', '..', 'web', 'dist'));
  if (!existsSync(join(dist, 'index.html'))) return;
  // The scripts and styles, named by their content's hash: cached for good, and gzipped (a third of
  // their size) on the first load. Only these: an API answer is small, and the SSE stream must
  // never sit in a compressor's buffer.
  app.use(
    '/assets',
    ...(compress ? [compression()] : []),
    express.static(join(dist, 'assets'), { index: false, maxAge: '1y', immutable: true }),
  );
  app.use(express.static(dist, { index: false, maxAge: '1h' }));
  app.get(/^\/(?!api\/|healthz|readyz|metrics).*/, (_req, res) => res.sendFile(join(dist, 'index.html')));
}

void bootstrapService(GatewayModule, {
  env: GatewayEnvSchema,
  configure: (app) => {
    const config = app.get<GatewayConfig>(GATEWAY_CONFIG);
    const server = app.getHttpAdapter().getInstance() as Express;
    // Whose X-Forwarded-For to believe: the per-address stream limit counts clients, not the ingress.
    server.set('trust proxy', config.trustProxyHops);
    server.use(securityHeaders());
    serveConsole(server, config.webDist, config.consoleCompression);
    if (config.access.mode === 'none')
      Logger.warn(
        'AUTH_MODE=none: everyone who reaches this gateway is an administrator (development only)',
        'Access',
      );
  },
});
