import { StreamQuerySchema, parseTopics } from '@artemis-studio/contracts';
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../access/permission';
import { clientAddress, type StudioRequest } from '../access/request-context';
import { clusterNotFound, DomainError } from '../domain-error';
import { validate } from '../http/validation.pipe';
import { StreamService } from './stream.service';
import { Describe } from '../openapi/operation';

@Controller('api/v1/stream')
export class StreamController {
  constructor(private readonly stream: StreamService) {}

  /** Authorised for the one cluster it follows when it opens, and ended once its credential is not good. */
  @Get()
  @Describe({
    summary: "A cluster's live signals and events (Server-Sent Events; docs/http-stream.md)",
    tag: 'stream',
    query: StreamQuerySchema,
    status: 200,
    produces: 'text/event-stream',
  })
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
    // The guard found it registered a moment ago; a reconnect storm need not ask twice.
    if (req.cluster?.id !== parsed.clusterId) throw clusterNotFound(parsed.clusterId);
    await this.stream.open(
      {
        clusterId: parsed.clusterId,
        topics: new Set(parseTopics(parsed.topics)),
        lastEventId: parsed.lastEventId,
        address: clientAddress(req) ?? 'unknown',
        credential: req.principal?.credential ?? null,
      },
      { response: res, onClose: (listener) => req.on('close', listener) },
    );
  }
}
