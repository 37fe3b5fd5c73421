import { originSelector, type MessageJobKind, type StartMessageJobRequest } from '@artemis-studio/contracts';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

/** The property the broker records a dead-lettered or expired message's queue in. */
const ORIGIN_PROPERTY = '_AMQ_ORIG_QUEUE';

/**
 * The filter a job runs with: the operator's, narrowed to a dead-letter group when it retries one
 * (`_AMQ_ORIG_QUEUE`, set by the broker when it dead-letters or expires a message), or to the
 * messages that have a queue to go back to when it retries by filter. Empty is every message.
 */
export function selectorOf(
  job: Pick<StartMessageJobRequest, 'filter' | 'origin' | 'messageIds' | 'quarantine'> & {
    kind?: MessageJobKind;
  },
): string {
  const byOrigin = job.kind !== undefined && retriesEachToOrigin({ ...job, kind: job.kind });
  const parts = [
    ...(job.origin !== undefined ? [originSelector(job.origin)] : []),
    ...(byOrigin ? [`${ORIGIN_PROPERTY} IS NOT NULL`] : []),
    ...(job.filter ? [job.filter] : []),
  ];
  return parts.length > 1 ? parts.map((p) => `(${p})`).join(' AND ') : (parts[0] ?? '');
}

/**
 * A retry by filter (or of everything) that is not quarantined: each message goes back to the queue
 * it came from, group by group (retriesByOrigin), not to one target.
 */
export const retriesEachToOrigin = (
  job: Pick<StartMessageJobRequest, 'kind' | 'origin' | 'messageIds' | 'quarantine'>,
): boolean =>
  job.kind === 'retry' && job.origin === undefined && !job.messageIds && job.quarantine === undefined;

/** Where the job's messages go: the quarantine first when asked, else the target or the group's origin. */
export function targetOf(job: StartMessageJobRequest): string | null {
  if (job.kind === 'delete') return null;
  return job.quarantine ?? job.to ?? job.origin ?? null;
}

/**
 * One batch of a job by filter: at most `batchSize` messages moved to the target (retry of a group
 * too: a move into its original queue is where `retryMessage` would put it; a delete's target is
 * its trash queue), committed every batch.
 */
export function filterBatch(
  queueMbean: string,
  job: StartMessageJobRequest,
  selector: string,
  target: string | null,
): JolokiaRequest {
  return {
    type: 'exec',
    mbean: queueMbean,
    operation: 'moveMessages(int,java.lang.String,java.lang.String,boolean,int)',
    arguments: [job.batchSize, selector, target, false, job.batchSize],
  };
}

/**
 * One call per chosen message. The broker finds a message by id only among those in memory: a paged
 * one (or one consumed since it was browsed) answers false, and is counted as not reached.
 */
export function chosenCall(
  queueMbean: string,
  kind: MessageJobKind,
  messageId: string,
  target: string | null,
): JolokiaRequest {
  const exec = (operation: string, args: unknown[]): JolokiaRequest => ({
    type: 'exec',
    mbean: queueMbean,
    operation,
    arguments: args,
  });
  switch (kind) {
    case 'move':
      return exec('moveMessage(long,java.lang.String)', [messageId, target]);
    case 'copy':
      return exec('copyMessage(long,java.lang.String)', [messageId, target]);
    case 'retry':
      return exec('retryMessage(long)', [messageId]);
    case 'delete':
      return exec('removeMessage(long)', [messageId]);
  }
}

/** How many messages a filtered batch processed, or the broker's words when it refused. */
export function batchCount(answer: JolokiaResponse): { processed: number } | { error: string } {
  if (answer.status !== 200) return { error: answer.error ?? `the broker answered status ${answer.status}` };
  return typeof answer.value === 'number'
    ? { processed: answer.value }
    : { error: 'the broker gave no count' };
}

/** A queue to quarantine messages in: anycast and durable, made when missing, kept when there. */
export const createQuarantine = (brokerMbean: string, name: string): JolokiaRequest => ({
  type: 'exec',
  mbean: brokerMbean,
  operation: 'createQueue(java.lang.String,boolean)',
  arguments: [JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST', durable: true }), true],
});

/** `countMessages(filter, '_AMQ_ORIG_QUEUE')`: the matching messages counted by the queue they came from. */
export const groupedCount = (queueMbean: string, selector: string): JolokiaRequest => ({
  type: 'exec',
  mbean: queueMbean,
  operation: 'countMessages(java.lang.String,java.lang.String)',
  arguments: [selector, ORIGIN_PROPERTY],
});

/** `countMessages(filter)` (capped at the browse limit by the broker) or, with no filter, every message. */
export const countCall = (queueMbean: string, selector: string): JolokiaRequest =>
  selector
    ? { type: 'exec', mbean: queueMbean, operation: 'countMessages(java.lang.String)', arguments: [selector] }
    : { type: 'read', mbean: queueMbean, attribute: 'MessageCount' };
