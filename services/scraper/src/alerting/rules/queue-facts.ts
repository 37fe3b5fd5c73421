import type { NodeTierB } from '../../polling/tier-b';
import type { QueueObservation } from '../../queues/queue-observation';
import type { QueueFact } from './conditions';
import { SubjectIndex } from './subject-index';

type Counter = 'messagesAdded' | 'messagesAcknowledged' | 'messagesKilled' | 'messagesExpired';

/** One node's last tick: when, and the observations themselves by queue name (their counters). */
interface NodeCounters {
  at: number;
  queues: Map<string, QueueObservation>;
}

/** A fact with the tick that last wrote it: a fact not written this tick is a queue gone. */
type TickedFact = QueueFact & { tick: number };

/** A counter's increase per second since the last tick; unknown at first sight and after a reset. */
const rate = (seconds: number, q: QueueObservation, before: QueueObservation | undefined, of: Counter) =>
  before && seconds > 0 && q[of] >= before[of] ? (q[of] - before[of]) / seconds : null;
const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/**
 * Each queue of a tick summed over the nodes that hold it, as the console shows it, with its rates
 * since the previous tick from the counters this keeps (per node: each node counts on its own).
 * Built from the observations the tick already parsed, so evaluating the rules reads nothing back.
 *
 * The facts, the counters and the index persist from tick to tick and are written in place: a
 * cluster of 10,000 queues otherwise allocated 10,000 facts and two maps of them at every tick, and
 * sorted the names again, which was most of an evaluation's time (bench/alerting). The index is
 * rebuilt only when a queue appeared or went.
 */
export class QueueFactBuilder {
  private counters = new Map<string, NodeCounters>();
  private readonly facts = new Map<string, TickedFact>();
  private tick = 0;
  private index: SubjectIndex<QueueFact> | null = null;

  /** Each queue by name. The map and its facts are this builder's own, rewritten at the next tick. */
  build(nodes: readonly NodeTierB[], now: Date): ReadonlyMap<string, QueueFact> {
    const at = now.getTime();
    const tick = ++this.tick;
    let written = 0;
    let appeared = false;
    const counters = new Map<string, NodeCounters>();
    for (const node of nodes) {
      const before = this.counters.get(node.nodeId);
      const seconds = before ? (at - before.at) / 1000 : 0;
      const kept = before?.queues ?? new Map<string, QueueObservation>();
      counters.set(node.nodeId, { at, queues: kept });
      for (const q of node.queues) {
        const previous = kept.get(q.name);
        kept.set(q.name, q);
        let fact = this.facts.get(q.name);
        if (fact === undefined) {
          this.facts.set(q.name, (fact = { ...EMPTY, name: q.name, tick: 0 }));
          appeared = true;
        }
        if (fact.tick !== tick) {
          written++;
          fact.tick = tick;
          fact.stale = false;
          fact.messageCount = q.messageCount;
          fact.consumerCount = q.consumerCount;
          fact.deliveringCount = q.deliveringCount;
          fact.addedPerSecond = rate(seconds, q, previous, 'messagesAdded');
          fact.acknowledgedPerSecond = rate(seconds, q, previous, 'messagesAcknowledged');
          fact.killedPerSecond = rate(seconds, q, previous, 'messagesKilled');
          fact.expiredPerSecond = rate(seconds, q, previous, 'messagesExpired');
          fact.firstMessageAt = q.firstMessageAt;
          fact.unconsumedMessages = q.consumerCount === 0 ? q.messageCount : 0;
          continue;
        }
        fact.messageCount += q.messageCount;
        fact.consumerCount += q.consumerCount;
        fact.deliveringCount += q.deliveringCount;
        if (q.consumerCount === 0) fact.unconsumedMessages += q.messageCount;
        fact.addedPerSecond = add(fact.addedPerSecond, rate(seconds, q, previous, 'messagesAdded'));
        fact.acknowledgedPerSecond = add(
          fact.acknowledgedPerSecond,
          rate(seconds, q, previous, 'messagesAcknowledged'),
        );
        fact.killedPerSecond = add(fact.killedPerSecond, rate(seconds, q, previous, 'messagesKilled'));
        fact.expiredPerSecond = add(fact.expiredPerSecond, rate(seconds, q, previous, 'messagesExpired'));
        if (q.firstMessageAt && (!fact.firstMessageAt || q.firstMessageAt < fact.firstMessageAt))
          fact.firstMessageAt = q.firstMessageAt;
      }
      // A queue gone from the node (or unread this tick) leaves no counter behind: should it come
      // back, its first rate would otherwise span the time it was away as if it were one tick.
      if (kept.size !== node.queues.length) {
        const listed = new Set(node.queues.map((q) => q.name));
        for (const name of kept.keys()) if (!listed.has(name)) kept.delete(name);
      }
    }
    this.counters = counters;
    for (const node of nodes)
      for (const name of node.unread) {
        let fact = this.facts.get(name);
        if (fact === undefined) {
          this.facts.set(name, (fact = { ...EMPTY, name, tick: 0 }));
          appeared = true;
        }
        if (fact.tick !== tick) {
          Object.assign(fact, EMPTY, { name, tick });
          written++;
        }
        fact.stale = true;
      }
    let went = false;
    if (this.facts.size !== written) {
      for (const [name, fact] of this.facts)
        if (fact.tick !== tick) {
          this.facts.delete(name);
          went = true;
        }
    }
    if (appeared || went) this.index = null;
    return this.facts;
  }

  /** The tick's facts, indexed for the rules' patterns: the same index until a queue appears or goes. */
  indexed(nodes: readonly NodeTierB[], now: Date): SubjectIndex<QueueFact> {
    this.build(nodes, now);
    return (this.index ??= new SubjectIndex(this.facts));
  }
}

/** A fact with every figure at nothing, to be written over (or, for an unread queue, unknown). */
const EMPTY: Omit<QueueFact, 'name'> = {
  messageCount: 0,
  consumerCount: 0,
  deliveringCount: 0,
  addedPerSecond: null,
  acknowledgedPerSecond: null,
  killedPerSecond: null,
  expiredPerSecond: null,
  firstMessageAt: null,
  unconsumedMessages: 0,
  stale: false,
  bandsRead: null,
  baseline: null,
};
