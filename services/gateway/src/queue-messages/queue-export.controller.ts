import {
  ExportedMessageSchema,
  QueueExportQuerySchema,
  ownerRpcs,
  type QueueExportQuery,
} from '@artemis-studio/contracts';
import { Controller, Get, Logger, Param, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import type { Principal } from '../access/principal';
import { CurrentPrincipal, type StudioRequest } from '../access/request-context';
import { draftFor, type AuditedRequest } from '../audit/audit-note';
import { AuditRepository } from '../audit/audit.repository';
import { ACTION_TIMEOUT_MS } from '../broker-actions/action-timeout';
import { BrokerName as QueueName, Valid } from '../http/validation.pipe';
import { Describe } from '../openapi/operation';
import { OwnerClient } from '../owner/owner-client';
import { maskExported } from './masking';
import { MessageBodyAccess } from './message-body-access';

/** A file name safe in a header and on any disk: the queue's name with the rest made dashes. */
const fileNameOf = (queue: string) =>
  `${queue.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100)}-${new Date().toISOString().replace(/[:.]/g, '-')}.ndjson`;

/**
 * A queue's messages as NDJSON (issue 60), one message per line (ExportedMessageSchema): read once
 * by the cluster's owner over AMQP, and streamed here a part at a time, the next asked for once the
 * last is written, so a slow download slows the read and nothing piles up. The messages' contents
 * need the cluster's `messageBodies` role, the masking rules apply as for a browse, and the export
 * is audited as it starts (who took which queue's messages out, with which filter).
 */
@Controller('api/v1/clusters/:id/queues/:queue')
@Access.cluster('viewer')
export class QueueExportController {
  private readonly logger = new Logger('QueueExport');

  constructor(
    private readonly bodies: MessageBodyAccess,
    private readonly owner: OwnerClient,
    private readonly audit: AuditRepository,
  ) {}

  @Get('export')
  @Describe({
    summary: "A queue's messages as NDJSON, one per line, typed and whole, read once (operator)",
    tag: 'actions',
    query: QueueExportQuerySchema,
    status: 200,
    response: ExportedMessageSchema,
    produces: 'application/x-ndjson',
    owner: true,
  })
  async export(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', QueueName) queue: string,
    @Query(new Valid(QueueExportQuerySchema, 'export query')) query: QueueExportQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: StudioRequest,
    @Res() res: Response,
  ): Promise<void> {
    const access = await this.bodies.require(cluster.id, principal, 'exporting messages');
    const ask = (session?: string) =>
      this.owner.ask(
        ownerRpcs.queueExport,
        { clusterId: access.id, queue, ...query, masking: access.masking, ...(session ? { session } : {}) },
        `exporting ${queue}`,
        ACTION_TIMEOUT_MS,
      );
    // The first part before any byte: a queue that is nowhere, or a node without AMQP, is an error
    // answered as JSON, not a download that breaks.
    let part = await ask();
    await this.audit.insert({
      ...draftFor(req as AuditedRequest, 'queue.export', 200),
      clusterId: access.id,
      target: queue,
      detail: {
        ...(query.filter ? { filter: query.filter } : {}),
        ...(query.node ? { node: query.node } : {}),
      },
    });
    res.status(200);
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${fileNameOf(queue)}"`);
    res.setHeader('Cache-Control', 'no-store');
    let gone = false;
    req.on('close', () => (gone = true));
    try {
      for (;;) {
        const lines = part.messages.map((m) => `${JSON.stringify(maskExported(m, access.masking))}\n`);
        if (lines.length > 0 && !res.write(lines.join('')))
          await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
        if (part.done || gone) break;
        part = await ask(part.session);
      }
      res.end();
    } catch (err) {
      // Headers are sent: the download ends short. Its last line is the reason, so a reader that
      // checks every line (an import's dry run) says why instead of taking a partial file as whole.
      this.logger.warn(`export of ${queue} broke: ${(err as Error).message}`);
      res.end(`${JSON.stringify({ error: { code: 'EXPORT_BROKEN', message: (err as Error).message } })}\n`);
    }
  }
}
