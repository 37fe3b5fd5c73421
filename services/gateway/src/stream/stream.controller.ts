import { StreamQuerySchema, parseTopics } from '@artemis-studio/contracts';
import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../access/permission';
import type { StudioRequest } from '../access/request-context';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { validate } from '../http/validation.pipe';
import { SseClient } from './sse-client';
import { StreamService } from './stream.service';

/** What a refused stream is told: try again in a few seconds (the browser's EventSource backs off). */
const RETRY_AFTER_SECONDS = 5;

@Controller('api/v1/stream')
export class StreamController {
  constructor(
    private readonly stream: StreamService,
    private readonly clusters: ClusterRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Authorised for the one cluster it follows when it opens, and ended once its credential is not good. */
  @Get()
  @Access.cluster('viewer', 'query')
  async open(
    @Query() query: Record<string, unknown>,
    @Req() req: StudioRequest,
    @Res() res: Response,
  ): Promise<void> {
    const header = req.header('last-event-id');
    // The cursor comes in a header as often as in the query: both are validated as one request.
    const parsed = validate(
      StreamQuerySchema,
      { ...query, ...(header !== undefined ? { lastEventId: header } : {}) },
      'stream request',
    );
    if (header !== undefined && !/^\d+$/.test(header.trim())) {
      throw new DomainError(
        'invalid',
        'VALIDATION_FAILED',
        'Last-Event-ID must be an event id (a non-negative integer)',
      );
    }
    await this.clusters.known(parsed.clusterId);
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const admitted = this.stream.admission.admit(address);
    if (admitted !== 'ok') {
      this.stream.refused.inc({ limit: admitted });
      throw new DomainError(
        'unavailable',
        'TOO_MANY_STREAMS',
        admitted === 'total'
          ? 'this gateway holds as many streams as it may; another replica may have room'
          : 'too many streams from this address; close some, or raise SSE_MAX_STREAMS_PER_ADDRESS',
        undefined,
        RETRY_AFTER_SECONDS,
      );
    }

    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    const client = new SseClient(
      parsed.clusterId,
      new Set(parseTopics(parsed.topics)),
      res,
      parsed.lastEventId,
      this.config.sendBounds,
      {
        slow: (c) => {
          this.stream.slow.inc();
          this.stream.hub.close(c);
          res.destroy();
        },
        frame: () => this.stream.framesWritten++,
      },
    );
    this.stream.credentials.hold(client, req.principal?.credential ?? null, () => {
      this.stream.hub.close(client);
      res.end();
    });
    req.on('close', () => {
      this.stream.hub.close(client);
      this.stream.credentials.release(client);
      this.stream.admission.release(address);
    });
    await this.stream.hub.open(client, parsed.lastEventId);
    // Headers only once the hub's subscription for the cluster is confirmed: a client told 200
    // before it was could miss a signal published right after, and the console refetches on
    // open, not later (a fresh-clone CI run lost a queues signal so).
    if (res.destroyed || res.writableEnded) return;
    res.flushHeaders();
    res.write('retry: 1000\n\n');
  }
}
