import type { AddressReading } from '../addresses/address-observation';
import type { NodeFact } from '../polling/tick-observer';
import type { NodeTierB } from '../polling/tier-b';

/** One owned cluster's figures as its last ticks left them. */
export interface ClusterFigures {
  clusterName: string;
  nodes: readonly NodeFact[];
  /** Each live node's last tier-B read; null until one completed. */
  queues: readonly NodeTierB[] | null;
  /** Each live node's addresses from the last tier-B read that read them all; null until one did. */
  addresses: readonly AddressReading[] | null;
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
  read: readonly NodeTierB[],
  cap: number,
  now: Date,
): { queues: ExportedQueue[]; left: number } {
  const byName = sumByName(
    read.flatMap((node) => node.queues),
    (q): ExportedQueue & { head: Date | null } => ({
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
    }),
    (sum, q) => {
      sum.messages += q.messageCount;
      sum.consumers += q.consumerCount;
      sum.delivering += q.deliveringCount;
      sum.added += q.messagesAdded;
      sum.acknowledged += q.messagesAcknowledged;
      sum.killed += q.messagesKilled;
      sum.expired += q.messagesExpired;
      if (q.firstMessageAt && (!sum.head || q.firstMessageAt < sum.head)) sum.head = q.firstMessageAt;
    },
  );
  const all = [...byName.values()].sort((a, b) => b.messages - a.messages || a.name.localeCompare(b.name));
  const queues = all.slice(0, cap).map(({ head, ...q }) => ({
    ...q,
    oldestAgeSeconds: q.messages > 0 && head ? Math.max(0, (now.getTime() - head.getTime()) / 1000) : null,
  }));
  return { queues, left: all.length - queues.length };
}

/** An address summed over the nodes that hold it: what is exported for it. */
export interface ExportedAddress {
  name: string;
  sizeBytes: number;
  paging: number;
  pages: number;
  /** The fullest node's fraction of its limit; null when no node says. */
  limitRatio: number | null;
}

/** The addresses of one cluster to export: the largest `cap` (then by name), and how many were left out. */
export function exportedAddresses(
  read: readonly AddressReading[],
  cap: number,
): { addresses: ExportedAddress[]; left: number } {
  const byName = sumByName(
    read.flatMap((node) => node.addresses),
    (a): ExportedAddress => ({
      name: a.name,
      sizeBytes: a.sizeBytes,
      paging: a.paging ? 1 : 0,
      pages: a.pages,
      limitRatio: a.limitFraction,
    }),
    (sum, a) => {
      sum.sizeBytes += a.sizeBytes;
      sum.paging = Math.max(sum.paging, a.paging ? 1 : 0);
      sum.pages += a.pages;
      if (a.limitFraction !== null) sum.limitRatio = Math.max(sum.limitRatio ?? 0, a.limitFraction);
    },
  );
  const all = [...byName.values()].sort((a, b) => b.sizeBytes - a.sizeBytes || a.name.localeCompare(b.name));
  const addresses = all.slice(0, cap);
  return { addresses, left: all.length - addresses.length };
}

/** One sum per name over every node's items: the first item starts it, each other is added to it. */
function sumByName<T extends { name: string }, S>(
  items: readonly T[],
  start: (item: T) => S,
  add: (sum: S, item: T) => void,
): Map<string, S> {
  const byName = new Map<string, S>();
  for (const item of items) {
    const sum = byName.get(item.name);
    if (sum === undefined) byName.set(item.name, start(item));
    else add(sum, item);
  }
  return byName;
}
