import type { NodeTierB } from '../polling/tier-b';
import type { QueueObservation } from '../queues/queue-observation';
import type { QueueFact } from './conditions';

type Counter = 'messagesAdded' | 'messagesAcknowledged' | 'messagesKilled' | 'messagesExpired';

/** One node's counters at its last tick: the observations themselves, kept by queue name. */
interface NodeCounters {
  at: number;
  queues: Map<string, Pick<QueueObservation, Counter>>;
}

/** A counter's increase per second since the last tick; unknown at first sight and after a reset. */
const rate = (
  seconds: number,
  q: QueueObservation,
  before: Pick<QueueObservation, Counter> | undefined,
  of: Counter,
) => (before && seconds > 0 && q[of] >= before[of] ? (q[of] - before[of]) / seconds : null);

/**
 * Each queue of a tick summed over the nodes that hold it, as the console shows it, with its rates
 * since the previous tick from the counters this keeps (per node: each node counts on its own).
 * Built from the observations the tick already parsed, so evaluating the rules reads nothing back.
 */
export class QueueFactBuilder {
  private counters = new Map<string, NodeCounters>();

  /** Each queue by name. */
  build(nodes: readonly NodeTierB[], now: Date): Map<string, QueueFact> {
    const at = now.getTime();
    const next = new Map<string, NodeCounters>();
    const facts = new Map<string, QueueFact>();
    const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
    for (const node of nodes) {
      const before = this.counters.get(node.nodeId);
      const seconds = before ? (at - before.at) / 1000 : 0;
      const kept = new Map<string, QueueObservation>();
      next.set(node.nodeId, { at, queues: kept });
      for (const q of node.queues) {
        kept.set(q.name, q);
        const previous = before?.queues.get(q.name);
        const own: QueueFact = {
          name: q.name,
          messageCount: q.messageCount,
          consumerCount: q.consumerCount,
          deliveringCount: q.deliveringCount,
          addedPerSecond: rate(seconds, q, previous, 'messagesAdded'),
          acknowledgedPerSecond: rate(seconds, q, previous, 'messagesAcknowledged'),
          killedPerSecond: rate(seconds, q, previous, 'messagesKilled'),
          expiredPerSecond: rate(seconds, q, previous, 'messagesExpired'),
          firstMessageAt: q.firstMessageAt,
        };
        const sum = facts.get(q.name);
        if (!sum) {
          facts.set(q.name, own);
          continue;
        }
        sum.messageCount += own.messageCount;
        sum.consumerCount += own.consumerCount;
        sum.deliveringCount += own.deliveringCount;
        sum.addedPerSecond = add(sum.addedPerSecond, own.addedPerSecond);
        sum.acknowledgedPerSecond = add(sum.acknowledgedPerSecond, own.acknowledgedPerSecond);
        sum.killedPerSecond = add(sum.killedPerSecond, own.killedPerSecond);
        sum.expiredPerSecond = add(sum.expiredPerSecond, own.expiredPerSecond);
        if (own.firstMessageAt && (!sum.firstMessageAt || own.firstMessageAt < sum.firstMessageAt))
          sum.firstMessageAt = own.firstMessageAt;
      }
    }
    for (const node of nodes)
      for (const name of node.unread) {
        const fact = facts.get(name);
        if (fact) fact.stale = true;
        else
          facts.set(name, {
            name,
            messageCount: 0,
            consumerCount: 0,
            deliveringCount: 0,
            addedPerSecond: null,
            acknowledgedPerSecond: null,
            killedPerSecond: null,
            expiredPerSecond: null,
            firstMessageAt: null,
            stale: true,
          });
      }
    this.counters = next;
    return facts;
  }

  /** Rates start afresh: the next tick's are unknown (a tick was missed, or the cluster let go). */
  forget(): void {
    this.counters = new Map();
  }
}
