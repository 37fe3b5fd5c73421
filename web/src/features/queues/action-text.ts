import type { QueueActionResult, QueueRow } from '@artemis-studio/contracts';
import { formatDuration, formatNumber, formatTime } from '../../lib/ui/format';

export type Destructive = 'purge' | 'delete' | 'retry';

/** Each one's words: the dialog's title, its confirming button, and what the notification says. */
export const DESTRUCTIVE_WORDS: Record<
  Destructive,
  { title: string; button: (count: string) => string; done: string }
> = {
  purge: { title: 'Purge', button: (count) => `Purge ${count}`, done: 'purged' },
  delete: { title: 'Delete', button: () => 'Delete queue', done: 'deleted' },
  retry: { title: 'Retry', button: (count) => `Retry ${count}`, done: 'retried' },
};

/** "12,408 messages" / "1 message". */
export const messages = (n: number) => `${formatNumber(n)} message${n === 1 ? '' : 's'}`;

/** One line per node of a result: what the broker did there, its messages `done` (removed, sent). */
export function describeNode(node: QueueActionResult['nodes'][number], done = 'removed'): string {
  switch (node.outcome) {
    case 'absent':
      return `${node.node}: the queue is not there`;
    case 'failed':
      return `${node.node}: ${node.busy ? 'busy, try again shortly' : 'refused'} (${node.error})`;
    case 'counted':
      return `${node.node}: ${node.messages === null ? 'nothing to count' : messages(node.messages)}`;
    case 'done':
      return `${node.node}: done${node.messages !== null ? `, ${messages(node.messages)} ${done}` : ''}${
        node.depthBefore !== null && node.depthAfter !== null
          ? ` (depth ${formatNumber(node.depthBefore)} → ${formatNumber(node.depthAfter)})`
          : ''
      }`;
  }
}

/** "purge 12,408 messages from orders.DLQ on node a": what the confirmation states. */
export function statement(action: Destructive, queue: string, impact: QueueActionResult): string {
  const nodes = impact.nodes.filter((n) => n.outcome === 'counted');
  const where =
    nodes.length === 1 ? `on node ${nodes[0].node}` : `on nodes ${nodes.map((n) => n.node).join(', ')}`;
  const count = messages(impact.messages ?? 0);
  switch (action) {
    case 'purge':
      return `Purge ${count} from ${queue} ${where}?`;
    case 'delete':
      return `Delete ${queue} ${where}, with the ${count} it holds?`;
    case 'retry':
      return `Send up to ${count} from ${queue} back to the queues they came from, ${where}?`;
  }
}

/**
 * A queue's pause as far as anyone can know it: the broker says whether it is paused, Studio
 * whether the pause it made survives a restart; of another tool's pause that is not known.
 */
export function pauseText(row: Pick<QueueRow, 'paused' | 'pause'>): string | null {
  if (!row.paused) return null;
  if (!row.pause) return 'paused (not through Studio: the broker does not say whether it survives a restart)';
  const who = `${row.pause.by ?? 'someone'} at ${formatTime(row.pause.at)}`;
  return row.pause.persist
    ? `paused, survives a restart (by ${who})`
    : `paused until a broker restart (by ${who})`;
}

/**
 * How long the oldest message has waited, as of `now`: "12 min (sent 10:41:03)"; "—" when the
 * queue is empty or its head carries no time (the broker cannot say, so neither do we).
 */
export function oldestWaitingText(oldestMessageAt: string | null, now: number): string {
  if (oldestMessageAt === null) return '—';
  const at = Date.parse(oldestMessageAt);
  return `${formatDuration(Math.max(0, now - at))} (sent ${formatTime(oldestMessageAt)})`;
}
