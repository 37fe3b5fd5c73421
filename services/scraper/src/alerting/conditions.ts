import { globMatcher, type AlertRuleKind } from '@artemis-studio/contracts';

/** A queue as the console shows it: summed over the live nodes, with its rates since the last tick. */
export interface QueueFact {
  name: string;
  messageCount: number;
  consumerCount: number;
  deliveringCount: number;
  /** Per second since the previous tick; null when unknown (first sight, a counter reset). */
  addedPerSecond: number | null;
  acknowledgedPerSecond: number | null;
  killedPerSecond: number | null;
  expiredPerSecond: number | null;
  /** When its oldest waiting message was sent; null when empty or the broker does not say. */
  firstMessageAt: Date | null;
  /** No node observed it lately (its tier could not be read): every figure is unknown. */
  stale?: boolean;
}

/** A node as its last tier-A poll saw it. */
export interface NodeFact {
  name: string;
  reachable: boolean;
  role: 'live' | 'backup' | 'unknown';
  replicaSync: boolean | null;
  diskUsage: number | null;
  memoryBytes: number | null;
  memoryLimitBytes: number | null;
}

/**
 * Whether a rule's condition holds for one subject, with the figure that decided it. `holds: null`
 * is "unknown" (the figure is not known this tick): an alert neither fires nor resolves on it.
 */
export interface Reading {
  subject: string;
  holds: boolean | null;
  value: number | null;
}

export interface RuleCondition {
  kind: AlertRuleKind;
  subjects: string;
  threshold: number | null;
}

const unknown = (subject: string): Reading => ({ subject, holds: null, value: null });
const above = (subject: string, value: number | null, threshold: number | null): Reading =>
  value === null || threshold === null ? unknown(subject) : { subject, holds: value > threshold, value };
const yesNo = (subject: string, holds: boolean, value: number): Reading => ({ subject, holds, value });

function queueReading(rule: RuleCondition, q: QueueFact, now: Date): Reading {
  switch (rule.kind) {
    case 'queue-depth':
      return above(q.name, q.messageCount, rule.threshold);
    case 'queue-oldest-message':
      if (q.messageCount === 0) return yesNo(q.name, false, 0);
      return q.firstMessageAt === null
        ? unknown(q.name)
        : above(q.name, Math.max(0, (now.getTime() - q.firstMessageAt.getTime()) / 1000), rule.threshold);
    case 'queue-no-consumers':
      return yesNo(q.name, q.consumerCount === 0 && q.messageCount > 0, q.messageCount);
    case 'queue-growing-unconsumed':
      return q.addedPerSecond === null
        ? unknown(q.name)
        : yesNo(q.name, q.consumerCount === 0 && q.addedPerSecond > 0, q.addedPerSecond);
    case 'queue-stuck-consumer':
      if (q.acknowledgedPerSecond === null) return unknown(q.name);
      return yesNo(
        q.name,
        q.messageCount > 0 && q.deliveringCount > 0 && q.consumerCount > 0 && q.acknowledgedPerSecond === 0,
        q.deliveringCount,
      );
    case 'queue-receiving':
      return q.addedPerSecond === null
        ? unknown(q.name)
        : yesNo(q.name, q.addedPerSecond > 0, q.addedPerSecond);
    case 'queue-killed-rate':
      return above(q.name, q.killedPerSecond, rule.threshold);
    case 'queue-expired-rate':
      return above(q.name, q.expiredPerSecond, rule.threshold);
    default:
      return unknown(q.name);
  }
}

function nodeReading(rule: RuleCondition, n: NodeFact): Reading {
  switch (rule.kind) {
    case 'node-unreachable':
      return yesNo(n.name, !n.reachable, n.reachable ? 0 : 1);
    case 'node-backup-unsynced':
      if (!n.reachable) return unknown(n.name);
      if (n.role !== 'backup') return yesNo(n.name, false, 0);
      return n.replicaSync === null ? unknown(n.name) : yesNo(n.name, !n.replicaSync, n.replicaSync ? 0 : 1);
    case 'node-disk-usage':
      return n.reachable ? above(n.name, n.diskUsage, rule.threshold) : unknown(n.name);
    case 'node-address-memory':
      if (!n.reachable || n.memoryBytes === null || n.memoryLimitBytes === null) return unknown(n.name);
      // A broker without a global limit (-1) never pages or blocks on it.
      if (n.memoryLimitBytes <= 0) return yesNo(n.name, false, 0);
      return above(n.name, n.memoryBytes / n.memoryLimitBytes, rule.threshold);
    default:
      return unknown(n.name);
  }
}

/** One reading per queue the rule's pattern matches. */
export function readQueues(rule: RuleCondition, queues: readonly QueueFact[], now: Date): Reading[] {
  const matches = globMatcher(rule.subjects);
  return queues
    .filter((q) => matches(q.name))
    .map((q) => (q.stale ? unknown(q.name) : queueReading(rule, q, now)));
}

/** One reading per node the rule's pattern matches. */
export function readNodes(rule: RuleCondition, nodes: readonly NodeFact[]): Reading[] {
  const matches = globMatcher(rule.subjects);
  return nodes.filter((n) => matches(n.name)).map((n) => nodeReading(rule, n));
}
