import type { ClusterTarget } from '@artemis-studio/db';
import { stepsOf, type OpenAlert } from './alert-steps';
import type { AlertStore, AlertTransitionRecord, LoadedRule, RuleScope } from './alert-store';
import { readNodes, readQueues, SubjectIndex, type NodeFact, type Reading } from './conditions';
import { QueueFactBuilder, type NodeQueues } from './queue-facts';

export interface AlertEvaluationDeps {
  store: Pick<AlertStore, 'load' | 'apply'>;
  /** Once a tick's transitions are committed: publish them, signal the console, wake the courier. */
  committed: (clusterId: string, transitions: AlertTransitionRecord[]) => void;
  intervals: () => { tierAMs: number; tierBMs: number };
  log: { warn: (message: string, fields?: Record<string, unknown>) => void };
}

/** What an evaluation needs of the cluster: its id, its name for the log, its nodes' names. */
type EvaluatedCluster = Pick<ClusterTarget, 'id' | 'name' | 'nodes'>;

/** A scope's figures this tick: each rule's readings (given its open subjects), and what exists. */
interface Figures {
  readingsOf: (rule: LoadedRule, open: ReadonlySet<string>) => Reading[];
  exists: (subject: string) => boolean;
}

/**
 * Evaluates a cluster's rules where its figures are, on its owner, right after each tick: node rules
 * after tier A, queue rules after tier B, both from what the tick itself observed (queues summed over
 * the nodes, as the console shows them, with rates since the previous tick). A failed evaluation
 * leaves the cluster's evaluation time behind, which the console's alert count then says.
 */
export class AlertEvaluation {
  private readonly queueFacts = new Map<string, QueueFactBuilder>();

  constructor(private readonly deps: AlertEvaluationDeps) {}

  async afterNodes(target: EvaluatedCluster, nodes: readonly NodeFact[], now: Date): Promise<void> {
    const names = new Set(target.nodes.map((n) => n.name));
    await this.run(target, 'node', now, () => ({
      readingsOf: (rule) => readNodes(rule, nodes),
      exists: (subject) => names.has(subject),
    }));
  }

  /**
   * `nodes` is what each live node's read gave, or null when one of them could not be read: a sum
   * without it would be wrong, so every queue figure is then unknown this tick.
   */
  async afterQueues(target: EvaluatedCluster, now: Date, nodes: readonly NodeQueues[] | null): Promise<void> {
    await this.run(target, 'queue', now, () => {
      if (nodes === null) return null;
      let builder = this.queueFacts.get(target.id);
      if (!builder) this.queueFacts.set(target.id, (builder = new QueueFactBuilder()));
      const queues = new SubjectIndex(builder.build(nodes, now));
      return {
        readingsOf: (rule, open) => readQueues(rule, queues, now, open),
        exists: (subject) => queues.has(subject),
      };
    });
  }

  /** The cluster was let go: its rates start afresh if it comes back. */
  forget(clusterId: string): void {
    this.queueFacts.delete(clusterId);
  }

  private async run(
    target: EvaluatedCluster,
    scope: RuleScope,
    now: Date,
    figures: () => Figures | null,
  ): Promise<void> {
    try {
      const { rules, open } = await this.deps.store.load(target.id, scope);
      // No rule in force and none retired with open alerts: nothing to evaluate, nothing to record.
      if (rules.length === 0) return;
      const { tierAMs, tierBMs } = this.deps.intervals();
      const interval = { intervalMs: Math.max(tierAMs, tierBMs), rules: rules.length };
      const known = figures();
      const openOf = new Map<string, OpenAlert[]>();
      for (const a of open) {
        const ofRule = openOf.get(a.ruleId);
        if (ofRule) ofRule.push(a);
        else openOf.set(a.ruleId, [a]);
      }
      const steps = rules.flatMap((rule) => {
        const alerts = openOf.get(rule.id) ?? [];
        const readings =
          rule.retired === null && known
            ? known.readingsOf(rule, new Set(alerts.map((a) => a.subject)))
            : null;
        return stepsOf(rule, readings, alerts, now, known?.exists ?? (() => true));
      });
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
