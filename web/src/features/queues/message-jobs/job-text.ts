import type {
  BodyFilter,
  BrokerCount,
  MessageJob,
  MessageJobImpact,
  MessageJobKind,
} from '@artemis-studio/contracts';
import { formatNumber } from '../../../lib/ui/format';

const plural = (n: number) => `${formatNumber(n)} message${n === 1 ? '' : 's'}`;

/** "12 messages", or "at least 200 messages" where the broker stopped counting. */
export const countText = (count: BrokerCount): string =>
  count.atLeast ? `at least ${plural(count.count)}` : plural(count.count);

export const KIND_WORDS: Record<MessageJobKind, { verb: string; done: string; title: string }> = {
  move: { verb: 'move', done: 'moved', title: 'Move' },
  copy: { verb: 'copy', done: 'copied', title: 'Copy' },
  retry: { verb: 'retry', done: 'retried', title: 'Retry' },
  delete: { verb: 'delete', done: 'deleted', title: 'Delete' },
};

/**
 * What a job is asked to do, in the confirmation's words: "Retry at least 197 messages from
 * orders.DLQ back to orders, on node a".
 */
export function jobStatement(
  kind: MessageJobKind,
  queue: string,
  what: {
    impact?: MessageJobImpact;
    chosen?: number;
    filter?: string;
    bodyFilter?: BodyFilter;
    origin?: string;
    /** Where the messages go: a quarantine when there is one. */
    target?: string | null;
    quarantine?: boolean;
    /** A move to the same queue on another node: from the node holding them to this one. */
    nodeMove?: { from: string; to: string };
  },
): string {
  const count =
    what.chosen !== undefined
      ? plural(what.chosen)
      : what.impact
        ? countText(what.impact.messages)
        : 'messages';
  const matching =
    (what.filter ? ` matching ${what.filter}` : '') +
    (what.bodyFilter ? ` whose body matches ${what.bodyFilter.expression}` : '');
  if (what.nodeMove)
    return `${KIND_WORDS[kind].title} ${count}${matching} of ${queue} from ${what.nodeMove.from} to ${what.nodeMove.to}`;
  const nodes = what.impact?.nodes.map((n) => n.node) ?? [];
  const where = nodes.length ? `, on node${nodes.length > 1 ? 's' : ''} ${nodes.join(', ')}` : '';
  let to = '';
  if (what.quarantine && what.target) to = ` into the quarantine queue ${what.target}`;
  else if (kind === 'retry')
    to = what.origin !== undefined ? ` back to ${what.origin}` : ' back where they came from';
  else if (what.target) to = ` to ${what.target}`;
  return `${KIND_WORDS[kind].title} ${count}${matching} from ${queue}${to}${where}`;
}

/** One line for a job: "moved 4,200 of 10,000 to b", "deleted 12 (3 not reached)". */
export function jobProgress(job: MessageJob): string {
  // A count the broker could not finish is no denominator: said as what it was at the start.
  const of =
    job.chosen !== null
      ? ` of ${formatNumber(job.chosen)} chosen`
      : job.planned && !job.planned.atLeast
        ? ` of ${plural(job.planned.count)}`
        : '';
  const counted = job.planned?.atLeast ? ` (the broker counted ${countText(job.planned)} at the start)` : '';
  const notReached = job.nodes.reduce((sum, n) => sum + n.notReached, 0);
  const missed = notReached ? ` (${formatNumber(notReached)} not reached: paged out of memory or gone)` : '';
  const to = job.toNode
    ? ` to ${job.toNode}`
    : job.target
      ? ` to ${job.target}`
      : job.kind === 'retry'
        ? ' back where they came from'
        : '';
  const back = job.pauseOnReturns ? `; ${formatNumber(job.returned)} came back since` : '';
  return `${KIND_WORDS[job.kind].done} ${formatNumber(job.processed)}${of}${to}${missed}${counted}${back}`;
}

/** What the status means for what was done, where it is not plain. */
export function jobEnding(job: MessageJob): string | null {
  switch (job.status) {
    case 'running':
      return job.cancelRequested ? 'stopping after the current batch…' : null;
    case 'done':
      return null;
    case 'cancelled':
      return 'cancelled between two batches: the count is exact, the rest is still in the queue';
    case 'failed':
      return `stopped: ${job.error ?? 'the broker refused'}${
        job.inFlight ? `; the last ${plural(job.inFlight)} may or may not have been processed` : ''
      }`;
    case 'interrupted':
      return `interrupted: ${job.error ?? 'the replica running it stopped'}${
        job.inFlight ? `; up to ${plural(job.inFlight)} more may have been processed` : ''
      }`;
    case 'paused':
      return `paused itself on bounce-back: ${job.error ?? 'too many came back'}. The rest is still in the queue, with those that came back: ${
        job.resumable ? 'resume it once the consumer is fixed' : 'redrive again once the consumer is fixed'
      }`;
  }
}

/** Planned-to-done as a percentage for the progress bar, or null when there is no plan to compare. */
export function jobPercent(job: MessageJob): number | null {
  const planned = job.chosen ?? (job.planned?.atLeast ? null : job.planned?.count) ?? null;
  if (!planned) return null;
  return Math.min(100, Math.round((job.processed / planned) * 100));
}

/** A queue whose name says it holds dead letters or expired messages: its groups are read at once. */
export const looksLikeDeadLetters = (queue: string): boolean => /DLQ|dead|expir/i.test(queue);
