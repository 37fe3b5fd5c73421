import type { Reading } from './conditions';

/** An alert not yet resolved, as stored. */
export interface OpenAlert {
  id: string;
  ruleId: string;
  subject: string;
  state: 'pending' | 'firing';
  startedAt: Date;
}

/** What one evaluation does to one alert. */
export type AlertStep =
  /** The condition holds and no alert was open: pending, or firing at once when `for` is 0. */
  | { kind: 'open'; ruleId: string; subject: string; state: 'pending' | 'firing'; value: number | null }
  /** Still pending, still firing, or unknown this tick: only its value and evaluation time move. */
  | { kind: 'keep'; alertId: string; value: number | null }
  /** Pending long enough. */
  | { kind: 'fire'; alertId: string; value: number | null }
  /** Pending, and the condition cleared before `for`: it never was an alert, nobody is told. */
  | { kind: 'drop'; alertId: string }
  | { kind: 'resolve'; alertId: string; value: number | null; reason: string };

export interface RuleToEvaluate {
  id: string;
  forSeconds: number;
  /** Why its alerts end now, when it was disabled or deleted; null while it is in force. */
  retired: string | null;
}

/**
 * One rule's evaluation (pending → firing → resolved). `readings` is null when this tick knows none
 * of the rule's figures (its tier could not be read): every open alert is kept as it is, since an
 * unknown figure neither fires nor resolves. `exists` tells a subject that is gone from one the rule
 * no longer matches.
 */
export function stepsOf(
  rule: RuleToEvaluate,
  readings: readonly Reading[] | null,
  open: readonly OpenAlert[],
  now: Date,
  exists: (subject: string) => boolean,
): AlertStep[] {
  const end = (alert: OpenAlert, value: number | null, reason: string): AlertStep =>
    alert.state === 'pending'
      ? { kind: 'drop', alertId: alert.id }
      : { kind: 'resolve', alertId: alert.id, value, reason };

  if (rule.retired !== null) return open.map((a) => end(a, null, rule.retired!));
  if (readings === null) return open.map((a) => ({ kind: 'keep', alertId: a.id, value: null }));

  const bySubject = new Map(open.map((a) => [a.subject, a]));
  const steps: AlertStep[] = [];
  for (const reading of readings) {
    const alert = bySubject.get(reading.subject);
    bySubject.delete(reading.subject);
    if (reading.holds === null) {
      if (alert) steps.push({ kind: 'keep', alertId: alert.id, value: null });
    } else if (reading.holds) {
      if (!alert)
        steps.push({
          kind: 'open',
          ruleId: rule.id,
          subject: reading.subject,
          state: rule.forSeconds === 0 ? 'firing' : 'pending',
          value: reading.value,
        });
      else if (
        alert.state === 'pending' &&
        now.getTime() - alert.startedAt.getTime() >= rule.forSeconds * 1000
      )
        steps.push({ kind: 'fire', alertId: alert.id, value: reading.value });
      else steps.push({ kind: 'keep', alertId: alert.id, value: reading.value });
    } else if (alert) {
      steps.push(end(alert, reading.value, 'the condition no longer holds'));
    }
  }
  for (const alert of bySubject.values())
    steps.push(
      end(
        alert,
        null,
        exists(alert.subject) ? 'no longer matched by the rule' : `${alert.subject} no longer exists`,
      ),
    );
  return steps;
}
