import type { NodeFact } from '../alerting/conditions';
import type { NodeQueues } from '../alerting/queue-facts';

/** One owned cluster's figures as its last ticks left them. */
export interface ClusterFigures {
  clusterName: string;
  nodes: readonly NodeFact[];
  /** Each live node's last tier-B read; null until one completed. */
  queues: readonly NodeQueues[] | null;
}

/** A queue summed over the nodes that hold it: what is exported for it. */
export interface ExportedQueue {
  name: string;
  messages: number;
  consumers: number;
  delivering: number;
  added: number;
  acknowledged: number;
  killed: number;
  expired: number;
  /** Seconds its oldest message has waited; null when empty or unknown. */
  oldestAgeSeconds: number | null;
}

/**
 * The queues of one cluster to export: summed over its nodes, the deepest `cap` of them (then by
 * name, so the set is stable between scrapes), and how many were left out. Bounded label
 * cardinality: a cluster of 10,000 queues costs Prometheus `cap` series per figure, not 10,000.
 */
export function exportedQueues(
  read: readonly NodeQueues[],
  cap: number,
  now: Date,
): { queues: ExportedQueue[]; left: number } {
  const byName = new Map<string, ExportedQueue & { head: Date | null }>();
  for (const node of read)
    for (const q of node.queues) {
      const sum = byName.get(q.name);
      if (!sum) {
        byName.set(q.name, {
          name: q.name,
          messages: q.messageCount,
          consumers: q.consumerCount,
          delivering: q.deliveringCount,
          added: q.messagesAdded,
          acknowledged: q.messagesAcknowledged,
          killed: q.messagesKilled,
          expired: q.messagesExpired,
          oldestAgeSeconds: null,
          head: q.firstMessageAt,
        });
        continue;
      }
      sum.messages += q.messageCount;
      sum.consumers += q.consumerCount;
      sum.delivering += q.deliveringCount;
      sum.added += q.messagesAdded;
      sum.acknowledged += q.messagesAcknowledged;
      sum.killed += q.messagesKilled;
      sum.expired += q.messagesExpired;
      if (q.firstMessageAt && (!sum.head || q.firstMessageAt < sum.head)) sum.head = q.firstMessageAt;
    }
  const all = [...byName.values()].sort((a, b) => b.messages - a.messages || a.name.localeCompare(b.name));
  const queues = all.slice(0, cap).map(({ head, ...q }) => ({
    ...q,
    oldestAgeSeconds: q.messages > 0 && head ? Math.max(0, (now.getTime() - head.getTime()) / 1000) : null,
  }));
  return { queues, left: all.length - queues.length };
}
