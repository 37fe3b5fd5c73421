import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';
import { createServer } from 'node:http';

export interface HttpTimeouts {
  /** The whole request head must arrive within this (slowloris dribbles it forever). */
  headersMs: number;
  /** The whole request, body included; a stream's long response is not part of it. */
  requestMs: number;
}

/**
 * Nest's Express adapter on an HTTP server that cuts slow clients off: a request head that takes
 * longer than `headersMs` gets a 408 and its connection closed, checked every second (Node's
 * default check runs every 30 s, which lets a slow client hold a socket that much longer).
 */
export class GuardedExpressAdapter extends ExpressAdapter {
  constructor(private readonly timeouts: HttpTimeouts) {
    super(express());
  }

  override initHttpServer(options: NestApplicationOptions): void {
    // TLS and forced closing are Nest's own paths; the services use neither.
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    this.setHttpServer(
      createServer(
        {
          headersTimeout: this.timeouts.headersMs,
          // Node refuses a request timeout shorter than the headers' one.
          requestTimeout: Math.max(this.timeouts.requestMs, this.timeouts.headersMs),
          connectionsCheckingInterval: 1000,
        },
        this.getInstance(),
      ),
    );
  }
}
