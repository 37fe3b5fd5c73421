import type { ClusterTarget } from '@artemis-studio/db';
import { stepsOf, type OpenAlert } from './alert-steps';
import type { AlertStore, AlertTransitionRecord, RuleScope } from './alert-store';
import { readNodes, readQueues, type NodeFact, type QueueFact, type Reading } from './conditions';

export interface AlertEvaluationDeps {
  store: Pick<AlertStore, 'load' | 'queueFacts' | 'apply'>;
  /** Once a tick's transitions are committed: publish them, signal the console, wake the courier. */
  committed: (clusterId: string, transitions: AlertTransitionRecord[]) => void;
  intervals: () => { tierAMs: number; tierBMs: number };
  log: { warn: (message: string, fields?: Record<string, unknown>) => void };
}

/**
 * Evaluates a cluster's rules where its figures are, on its owner, right after each tick: node rules
 * after tier A (from the observations in memory), queue rules after tier B (from the snapshots just
 * written, summed over the nodes as the console shows them). A failed evaluation leaves the
 * cluster's evaluation time behind, which the console's alert count then says.
 */
export class AlertEvaluation {
  constructor(private readonly deps: AlertEvaluationDeps) {}

  async afterNodes(target: ClusterTarget, nodes: readonly NodeFact[], now: Date): Promise<void> {
    const names = new Set(target.nodes.map((n) => n.name));
    await this.run(target, 'node', now, async () => ({
      readingsOf: (rule) => readNodes(rule, nodes),
      exists: (subject) => names.has(subject),
    }));
  }

  async afterQueues(target: ClusterTarget, now: Date): Promise<void> {
    const { tierBMs } = this.deps.intervals();
    await this.run(target, 'queue', now, async () => {
      const queues: QueueFact[] = await this.deps.store.queueFacts(
        target.id,
        new Date(now.getTime() - 2 * tierBMs),
      );
      const names = new Set(queues.map((q) => q.name));
      return { readingsOf: (rule) => readQueues(rule, queues, now), exists: (subject) => names.has(subject) };
    });
  }

  private async run(
    target: ClusterTarget,
    scope: RuleScope,
    now: Date,
    facts: () => Promise<{
      readingsOf: (rule: Parameters<typeof readQueues>[0]) => Reading[];
      exists: (subject: string) => boolean;
    }>,
  ): Promise<void> {
    try {
      const { rules, open } = await this.deps.store.load(target.id, scope);
      // No rule in force and none retired with open alerts: nothing to evaluate, nothing to record.
      if (rules.length === 0) return;
      const { tierAMs, tierBMs } = this.deps.intervals();
      const interval = { intervalMs: Math.max(tierAMs, tierBMs), rules: rules.length };
      const { readingsOf, exists } = await facts();
      const openOf = new Map<string, OpenAlert[]>();
      for (const a of open) {
        const ofRule = openOf.get(a.ruleId);
        if (ofRule) ofRule.push(a);
        else openOf.set(a.ruleId, [a]);
      }
      const steps = rules.flatMap((rule) =>
        stepsOf(
          rule,
          rule.retired === null ? readingsOf(rule) : null,
          openOf.get(rule.id) ?? [],
          now,
          exists,
        ),
      );
      const transitions = await this.deps.store.apply(target.id, steps, now, interval);
      if (transitions) this.deps.committed(target.id, transitions);
    } catch (err) {
      this.deps.log.warn(
        `cluster ${target.name}: ${scope} alert rules not evaluated: ${(err as Error).message}`,
        {
          clusterId: target.id,
        },
      );
    }
  }
}
