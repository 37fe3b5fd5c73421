import {
  IMPORT_MAX_BYTES,
  QueueImportQuerySchema,
  QueueImportReportSchema,
  importLineProblem,
  ownerRpcs,
  type ExportedMessage,
  type QueueImportQuery,
  type QueueImportReport,
} from '@artemis-studio/contracts';
import { sleep } from '@artemis-studio/timing';
import { Controller, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { AuditRecord, Audited, type AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { BrokerName, Valid } from '../http/validation.pipe';
import { Describe } from '../openapi/operation';
import { OwnerClient } from '../owner/owner-client';
import { ActionRunner } from './action-runner';
import { ACTION_TIMEOUT_MS } from './action-timeout';
import { importParts, readBody } from './import-parts';

/** Lines named in a refusal, at most. */
const PROBLEMS_SHOWN = 10;

/**
 * An export's NDJSON sent back to a queue (issue 60). Every line is checked before anything is
 * sent: one that is not an exported message, whose body was cut, or whose body masking changed or
 * withheld refuses the whole file, naming the lines. A dry run stops there, with the counts and the
 * node it would go to. The import sends in parts through the cluster's owner, at `rate` when given,
 * and stops between two parts when the request is abandoned; it runs once per Idempotency-Key.
 */
@Controller('api/v1/clusters/:id/queues/:queue')
@Access.cluster('operator')
export class QueueImportController {
  constructor(
    private readonly owner: OwnerClient,
    private readonly actions: ActionRunner,
  ) {}

  @Post('import')
  @Describe({
    summary:
      "An export's NDJSON sent to the queue, every line checked first; dryRun=true only checks (operator)",
    tag: 'actions',
    query: QueueImportQuerySchema,
    status: 200,
    response: QueueImportReportSchema,
    owner: true,
  })
  @HttpCode(200)
  @Audited('queue.import')
  async import(
    @Cluster() cluster: RegisteredCluster,
    @Param('queue', BrokerName) queue: string,
    @Query(new Valid(QueueImportQuerySchema, 'import query')) query: QueueImportQuery,
    @Headers('idempotency-key') key: string | undefined,
    @AuditRecord() note: AuditNote,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<QueueImportReport> {
    const text = await readBody(req, IMPORT_MAX_BYTES);
    const messages = checkedLines(text);
    const leftOut = {
      masked: count(messages, (p) => p.masked === true),
      broker: count(messages, (p) => !p.masked && p.name.startsWith('_AMQ_')),
    };
    const report = (node: string, imported: number): QueueImportReport => ({
      dryRun: query.dryRun === 'true',
      queue,
      node,
      messages: messages.length,
      imported,
      leftOut,
    });
    const ask = (part: ExportedMessage[]) =>
      this.owner.ask(
        ownerRpcs.queueImport,
        { clusterId: cluster.id, queue, ...(query.node ? { node: query.node } : {}), messages: part },
        `importing into ${queue}`,
        ACTION_TIMEOUT_MS,
      );
    if (query.dryRun === 'true') {
      note.describe({
        clusterId: cluster.id,
        target: queue,
        detail: { dryRun: true, messages: messages.length },
      });
      return report((await ask([])).node, 0);
    }
    let abandoned = false;
    res.on('close', () => (abandoned = !res.writableFinished));
    return this.actions.run({
      clusterId: cluster.id,
      key,
      request: {
        queue,
        messages: messages.length,
        ...(query.rate ? { rate: query.rate } : {}),
        ...(query.node ? { node: query.node } : {}),
      },
      // The file itself is compared by its digest: a retried upload of the same file is the same import.
      compared: { file: createHash('sha256').update(text).digest('hex') },
      target: queue,
      note,
      act: async () => {
        let node = query.node ?? '';
        let imported = 0;
        for (const part of importParts(messages, query.rate, Date.now())) {
          if (abandoned) break;
          const wait = part.notBefore - Date.now();
          if (wait > 0) await sleep(wait);
          const answer = await ask(part.messages).catch((err: Error) => {
            throw imported > 0
              ? new DomainError('conflict', 'IMPORT_STOPPED', `${imported} imported, then: ${err.message}`)
              : err;
          });
          node = answer.node;
          imported += answer.sent;
        }
        return report(node, imported);
      },
      audit: (done) => ({ imported: done.imported, node: done.node, leftOut: done.leftOut }),
    });
  }
}

/** Every line as an exported message, or a 400 naming the lines that are not. */
function checkedLines(text: string): ExportedMessage[] {
  const messages: ExportedMessage[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const checked = importLineProblem(line);
    if ('problem' in checked) problems.push(`line ${i + 1}: ${checked.problem}`);
    else messages.push(checked.message);
  });
  if (problems.length > 0)
    throw new DomainError(
      'invalid',
      'IMPORT_INVALID',
      `${problems.length} line${problems.length > 1 ? 's' : ''} cannot be imported, so nothing was: ${problems.slice(0, PROBLEMS_SHOWN).join('; ')}${problems.length > PROBLEMS_SHOWN ? '; …' : ''}`,
    );
  if (messages.length === 0) throw new DomainError('invalid', 'IMPORT_INVALID', 'the file holds no message');
  return messages;
}

const count = (messages: ExportedMessage[], test: (p: ExportedMessage['properties'][number]) => boolean) =>
  messages.reduce((n, m) => n + m.properties.filter(test).length, 0);
