import { stepsOf, type OpenAlert } from '../rules/alert-steps';
import type { Reading } from '../rules/conditions';
import type {
  AlertEvaluationRepository,
  AlertTransitionRecord,
  LoadedRule,
  RuleScope,
} from './alert-evaluation.repository';

/**
 * A scope's figures this tick: each rule's readings (given its open subjects), null when this tick
 * knows none of them; and whether a rule's subject still exists.
 */
export interface Figures {
  readingsOf: (rule: LoadedRule, open: ReadonlySet<string>) => Reading[] | null;
  exists: (rule: LoadedRule, subject: string) => boolean;
  /** Why some of the tick's figures are unknown: the scope then reads as not evaluated. */
  unknown?: string;
}

/** What evaluating a scope needs, on the owner (each tick) as on every replica (the fleet's rule). */
export interface ScopeEvaluationDeps {
  store: Pick<AlertEvaluationRepository, 'load' | 'apply'>;
  /** Once a tick's transitions are committed: publish them, signal the console, wake the courier. */
  committed: (clusterId: string, transitions: AlertTransitionRecord[]) => void;
  intervals: () => { tierAMs: number; tierBMs: number };
  log: { warn: (message: string, fields?: Record<string, unknown>) => void };
}

/**
 * Evaluates one scope of a cluster's rules against `figures` and writes the outcome with the
 * notifications it owes. A failed evaluation leaves the scope's stamp behind, which the console's
 * alert count then says; it is logged, never thrown.
 */
export async function evaluateScope(
  deps: ScopeEvaluationDeps,
  target: { id: string; name: string },
  scope: RuleScope,
  now: Date,
  figures: (rules: readonly LoadedRule[]) => Figures | null | Promise<Figures | null>,
): Promise<void> {
  try {
    const { rules, open } = await deps.store.load(target.id, scope);
    // No rule in force and none retired with open alerts: nothing to evaluate, nothing to record.
    if (rules.length === 0) return;
    const { tierAMs, tierBMs } = deps.intervals();
    const known = await figures(rules);
    const evaluation = {
      scope,
      intervalMs: scope === 'tier-b' ? tierBMs : tierAMs,
      rules: rules.length,
      unknown: known?.unknown ?? null,
    };
    const openOf = new Map<string, OpenAlert[]>();
    for (const a of open) {
      const ofRule = openOf.get(a.ruleId);
      if (ofRule) ofRule.push(a);
      else openOf.set(a.ruleId, [a]);
    }
    const steps = rules.flatMap((rule) => {
      const alerts = openOf.get(rule.id) ?? [];
      const readings =
        rule.retired === null && known ? known.readingsOf(rule, new Set(alerts.map((a) => a.subject))) : null;
      return stepsOf(rule, readings, alerts, now, (subject) => known?.exists(rule, subject) ?? true);
    });
    const transitions = await deps.store.apply(target.id, steps, now, evaluation);
    if (transitions) deps.committed(target.id, transitions);
  } catch (err) {
    deps.log.warn(`cluster ${target.name}: ${scope} alert rules not evaluated: ${(err as Error).message}`, {
      clusterId: target.id,
    });
  }
}
