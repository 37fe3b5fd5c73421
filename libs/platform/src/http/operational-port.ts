import type { INestApplication } from '@nestjs/common';
import type { Express, NextFunction, Request, Response } from 'express';
import { createServer } from 'node:http';

const OPERATIONAL_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * With OPERATIONAL_PORT set, /healthz, /readyz and /metrics answer on that port and nowhere else,
 * and that port answers nothing else: the kubelet's probes and Prometheus reach them on the pod
 * network, while the public port behind the ingress never shows the service's metrics. One
 * Express app serves both ports; each request is let through only on the port it belongs to.
 * Called before the app listens, so this check runs before every route.
 */
export function splitOperationalPort(app: INestApplication, port: number): () => void {
  const express = app.getHttpAdapter().getInstance() as Express;
  express.use((req: Request, res: Response, next: NextFunction) => {
    const operational = OPERATIONAL_PATHS.has(req.path);
    if (operational === (req.socket.localPort === port)) return next();
    res.status(404).json({
      error: {
        code: 'NOT_FOUND',
        message: operational ? `${req.path} is served on the operational port` : 'not found',
      },
    });
  });
  // Listened on once the app is up. A signal closes the app and then exits (bootstrap.ts), which
  // ends this server with the process.
  return () => {
    createServer(express).listen(port);
  };
}
