import { ALERT_RULE_TEST_READINGS_SHOWN, subjectKindOf, type AlertRuleTest } from '@artemis-studio/contracts';
import type { NodeFact, ObservedCluster, TierBRead } from '../../polling/tick-observer';
import type { AddressSizeSample } from '../../addresses/address-sample.repository';
import { hourOf, type Baseline } from '@artemis-studio/db';
import type { QueueBaselines } from '../rules/baseline-readings';
import { AddressFactBuilder } from '../rules/address-facts';
import {
  readAddresses,
  readNodes,
  readQueues,
  readStudio,
  READS_PAST_TICKS,
  type Reading,
  type RuleCondition,
  type StudioFacts,
} from '../rules/conditions';
import { QueueFactBuilder } from '../rules/queue-facts';
import { readLinks } from '../rules/link-readings';
import { SubjectIndex } from '../rules/subject-index';
import { TREND_WINDOW_MS } from '../rules/trend';
import { freshMemory, type ClusterMemory } from './cluster-memory';
import { evaluateScope, type ScopeEvaluationDeps } from './scope-evaluation';

export interface AlertEvaluationDeps extends ScopeEvaluationDeps {
  /** What Studio knows of its own observation of the cluster: read only when a Studio rule asks. */
  studioFacts: (clusterId: string) => Promise<StudioFacts>;
  /** The address sizes sampled in [since, until), oldest first, to start the forecasts' trends. */
  addressHistory: (clusterId: string, since: Date, until: Date) => Promise<AddressSizeSample[]>;
  /** The nodes' disk usage sampled in [since, until), oldest first, by node id: the same for the disks. */
  diskHistory: (
    clusterId: string,
    since: Date,
    until: Date,
  ) => Promise<{ nodeId: string; atMs: number; diskUsage: number }[]>;
  /** Every queue's usual band at the hour holding `atMs` (ADR-0039), by queue. */
  queueBaselines: (clusterId: string, atMs: number) => Promise<ReadonlyMap<string, Baseline>>;
}

/**
 * Evaluates a cluster's rules where its figures are, on its owner, right after each tick: node rules
 * after tier A, queue rules after tier B, both from what the tick itself observed (queues summed over
 * the nodes, as the console shows them, with rates since the previous tick). A failed evaluation
 * leaves the cluster's evaluation time behind, which the console's alert count then says.
 */
export class AlertEvaluation {
  private readonly memory = new Map<string, ClusterMemory>();

  constructor(private readonly deps: AlertEvaluationDeps) {}

  async afterNodes(target: ObservedCluster, nodes: readonly NodeFact[], now: Date): Promise<void> {
    const names = new Set(target.nodes.map((n) => n.name));
    // Kept at every tick, rules or none (a few nodes cost nothing): a forecast needs samples.
    const memory = this.memoryOf(target.id);
    if (memory.nodes.fresh) {
      const byId = new Map(target.nodes.map((n) => [n.id, n.name]));
      const disks = await this.recentSamples(target, 'disk', this.deps.diskHistory, now);
      memory.nodes.seed(
        disks.flatMap((s) => (byId.has(s.nodeId) ? [{ ...s, node: byId.get(s.nodeId)! }] : [])),
      );
    }
    const facts = memory.nodes.observe(nodes, now);
    memory.last.nodes = facts;
    memory.last.nodesAt = now;
    await evaluateScope(this.deps, target, 'tier-a', now, async (rules) => {
      const studio = rules.some((r) => subjectKindOf(r.kind) === 'studio' && r.retired === null)
        ? await this.studioFacts(target)
        : null;
      return {
        readingsOf: (rule) =>
          subjectKindOf(rule.kind) !== 'studio'
            ? readNodes(rule, facts, now)
            : studio && readStudio(rule, studio, now),
        exists: (rule, subject) => subjectKindOf(rule.kind) === 'studio' || names.has(subject),
      };
    });
  }

  /**
   * What was sampled over the last trend window, to start the forecasts from; nothing when it could
   * not be read (the forecasts then wait for three ticks of their own).
   */
  private async recentSamples<T>(
    target: ObservedCluster,
    what: string,
    read: (clusterId: string, since: Date, until: Date) => Promise<T[]>,
    now: Date,
  ): Promise<T[]> {
    try {
      return await read(target.id, new Date(now.getTime() - TREND_WINDOW_MS), now);
    } catch (err) {
      this.deps.log.warn(
        `cluster ${target.name}: ${what} samples not read for the forecasts: ${(err as Error).message}`,
        { clusterId: target.id },
      );
      return [];
    }
  }

  /**
   * The bands at the hour holding `now`, read at its first tick and kept for the hour (they are
   * learned from past weeks: nothing this hour changes them); when they could not be read, why,
   * and the next tick tries again.
   */
  private async baselinesAt(
    target: ObservedCluster,
    memory: ClusterMemory,
    now: Date,
  ): Promise<QueueBaselines> {
    const hour = hourOf(now.getTime());
    if (memory.baselines?.hour === hour) return memory.baselines.read;
    try {
      const read = { byQueue: await this.deps.queueBaselines(target.id, now.getTime()) };
      memory.baselines = { hour, read };
      return read;
    } catch (err) {
      const why = `the bands could not be read: ${(err as Error).message}`;
      this.deps.log.warn(`cluster ${target.name}: ${why}`, { clusterId: target.id });
      return { unread: why };
    }
  }

  /** Null when they could not be read: the Studio rules then keep their alerts as they are. */
  private async studioFacts(target: ObservedCluster): Promise<StudioFacts | null> {
    try {
      return await this.deps.studioFacts(target.id);
    } catch (err) {
      this.deps.log.warn(`cluster ${target.name}: Studio's own figures not read: ${(err as Error).message}`, {
        clusterId: target.id,
      });
      return null;
    }
  }

  /**
   * `read` is what each live node's read gave, or the node that could not be read: a sum without
   * it would be wrong, so every queue and address figure is then unknown this tick; and every
   * address figure when one node's addresses could not be read. Either way the tier is recorded as
   * not evaluated, with why, and the header says so (unknown reads as unknown, never as calm).
   */
  async afterQueues(target: ObservedCluster, now: Date, read: TierBRead): Promise<void> {
    const memory = this.memoryOf(target.id);
    if (!('reason' in read)) {
      memory.last.read = read;
      memory.last.readAt = now;
      memory.last.names = new Map(target.nodes.map((n) => [n.id, n.name]));
    }
    await evaluateScope(this.deps, target, 'tier-b', now, async (rules) => {
      if ('reason' in read)
        return {
          readingsOf: () => null,
          exists: () => true,
          unknown: `node ${read.node} could not be read: ${read.reason}`,
        };
      const nodes = read;
      // Built only for the kinds of rule in force (a cluster without costs nothing): the first tick
      // after a rule is saved knows no rate; a forecast starts from the samples stored before.
      const kinds = new Set(rules.filter((r) => r.retired === null).map((r) => subjectKindOf(r.kind)));
      if (kinds.has('address') && memory.addresses.fresh)
        memory.addresses.seed(await this.recentSamples(target, 'address', this.deps.addressHistory, now));
      const queues = kinds.has('queue') ? memory.queues.indexed(nodes, now) : null;
      const baselines = rules.some((r) => r.kind === 'queue-depth-baseline' && r.retired === null)
        ? await this.baselinesAt(target, memory, now)
        : undefined;
      const addresses = kinds.has('address') ? new SubjectIndex(memory.addresses.build(nodes, now)) : null;
      memory.last.facts = { queues, addresses, at: now };
      const unreadAddresses = nodes.filter((n) => n.addresses === null).map((n) => nameOf(target, n.nodeId));
      const addressesKnown = unreadAddresses.length === 0;
      return {
        unknown:
          kinds.has('address') && !addressesKnown
            ? `the addresses of node ${unreadAddresses.join(', ')} could not be read`
            : undefined,
        readingsOf: (rule, open) => {
          const kind = subjectKindOf(rule.kind);
          if (kind === 'link')
            return readLinks(rule, nodes, (id) => memory.last.names.get(id) ?? id, now, memory.links);
          if (kind === 'queue') return queues && readQueues(rule, queues, now, open, baselines);
          return addresses && addressesKnown ? readAddresses(rule, addresses, open) : null;
        },
        // A link rule reads every link the tick saw: one it did not is gone.
        exists: (rule, subject) =>
          subjectKindOf(rule.kind) !== 'link' &&
          ((subjectKindOf(rule.kind) === 'queue' ? queues : addresses)?.has(subject) ?? true),
      };
    });
  }

  /**
   * A rule read against the last ticks' figures, as its evaluation would read them; nothing is
   * stored. Queue and address rules use the facts of the last tick when rules were in force (with
   * rates and forecasts); without, facts built from the last read alone, where rates are unknown.
   */
  async test(clusterId: string, rule: RuleCondition, now: Date): Promise<AlertRuleTest> {
    const last = this.memory.get(clusterId)?.last;
    const subject = subjectKindOf(rule.kind);
    let readings: Reading[] = [];
    let observedAt: Date | null = null;
    let note: string | null = null;
    if (subject === 'studio') {
      readings = readStudio(rule, await this.deps.studioFacts(clusterId), now);
      observedAt = now;
    } else if (subject === 'node') {
      if (last?.nodes) readings = readNodes(rule, last.nodes, now);
      observedAt = last?.nodesAt ?? null;
    } else if (subject === 'link') {
      if (last?.read && last.readAt)
        readings =
          readLinks(
            rule,
            last.read,
            (id) => last.names.get(id) ?? id,
            last.readAt,
            new Map(this.memory.get(clusterId)?.links),
          ) ?? [];
      observedAt = last?.readAt ?? null;
    } else if (last?.read && last.readAt) {
      // The facts the last tick built for rules of this kind, or facts of the last read alone.
      const built = last.facts?.at === last.readAt ? last.facts : null;
      if (subject === 'queue')
        readings = readQueues(
          rule,
          built?.queues ?? new QueueFactBuilder().indexed(last.read, last.readAt),
          last.readAt,
          undefined,
          rule.kind === 'queue-depth-baseline' ? await this.bandsForTest(clusterId, last.readAt) : undefined,
        );
      else
        readings = readAddresses(
          rule,
          built?.addresses ?? new SubjectIndex(new AddressFactBuilder().build(last.read, last.readAt)),
        );
      if (!(subject === 'queue' ? built?.queues : built?.addresses) && READS_PAST_TICKS.has(rule.kind))
        note = `no ${subject} rule was in force at the last tick: rates and forecasts, which need the ticks before, are unknown here`;
      observedAt = last.readAt;
    }
    if (observedAt === null) note = 'the owner has not read this cluster yet';
    const rank = (r: Reading) => (r.holds === true ? 0 : r.holds === null ? 1 : 2);
    return {
      observedAt: observedAt?.toISOString() ?? null,
      matched: readings.length,
      holding: readings.filter((r) => r.holds === true).length,
      unknown: readings.filter((r) => r.holds === null).length,
      readings: [...readings]
        .sort((a, b) => rank(a) - rank(b) || a.subject.localeCompare(b.subject))
        .slice(0, ALERT_RULE_TEST_READINGS_SHOWN)
        .map((r) => ({ ...r, value: r.value !== null && Number.isFinite(r.value) ? r.value : null })),
      note,
    };
  }

  /** The bands the evaluation holds for the hour of `at`, or else read now (a test stores nothing). */
  private async bandsForTest(clusterId: string, at: Date): Promise<QueueBaselines> {
    const held = this.memory.get(clusterId)?.baselines;
    if (held?.hour === hourOf(at.getTime())) return held.read;
    return { byQueue: await this.deps.queueBaselines(clusterId, at.getTime()) };
  }

  /** The cluster was let go: its rates and forecasts start afresh if it comes back. */
  forget(clusterId: string): void {
    this.memory.delete(clusterId);
  }

  private memoryOf(clusterId: string): ClusterMemory {
    let memory = this.memory.get(clusterId);
    if (!memory) this.memory.set(clusterId, (memory = freshMemory()));
    return memory;
  }
}

/** A node's registered name, or its id when it is no longer registered. */
function nameOf(target: ObservedCluster, nodeId: string): string {
  return target.nodes.find((n) => n.id === nodeId)?.name ?? nodeId;
}
