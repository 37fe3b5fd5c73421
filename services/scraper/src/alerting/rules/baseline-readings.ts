import { aboveBand, type Baseline } from '@artemis-studio/db';
import type { QueueFact, Reading, RuleCondition } from './conditions';
import type { SubjectIndex } from './subject-index';

/**
 * The queues' usual bands at the hour being evaluated (ADR-0039), by queue; or why none could be
 * read, which leaves every baseline reading unknown this tick.
 */
export type QueueBaselines = { byQueue: ReadonlyMap<string, Baseline> } | { unread: string };

const NO_HISTORY: Baseline = {
  band: null,
  why: 'no history of this queue yet: a band needs two weeks of it',
};

/** A queue's band, kept on its fact for the bands it was taken from: a lookup once an hour, not per tick and rule. */
function baselineOf(q: QueueFact, byQueue: ReadonlyMap<string, Baseline>): Baseline {
  if (q.bandsRead !== byQueue) {
    q.baseline = byQueue.get(q.name) ?? NO_HISTORY;
    q.bandsRead = byQueue;
  }
  return q.baseline!;
}

/**
 * A baseline rule's readings: each queue's depth against `threshold` times the top of its band.
 * Without a band (too little history, or the bands not read) a reading is unknown, and says why:
 * it neither fires nor resolves an alert, as any unknown figure. Given `open`, only the readings
 * an evaluation acts on (as `readQueues`).
 */
export function readBaselines(
  rule: RuleCondition,
  queues: SubjectIndex<QueueFact>,
  open: ReadonlySet<string> | undefined,
  baselines: QueueBaselines | undefined,
): Reading[] {
  const readings: Reading[] = [];
  const kept = (q: QueueFact, holds: boolean | null) => !open || holds === true || open.has(q.name);
  const unread = !baselines ? 'the bands were not read' : 'unread' in baselines ? baselines.unread : null;
  if (unread !== null || rule.threshold === null) {
    const why = unread ?? 'the rule has no threshold';
    for (const q of queues.select(rule.subjects))
      if (kept(q, null))
        readings.push({ subject: q.name, holds: null, value: q.stale ? null : q.messageCount, why });
    return readings;
  }
  const byQueue = (baselines as { byQueue: ReadonlyMap<string, Baseline> }).byQueue;
  for (const q of queues.select(rule.subjects)) {
    if (q.stale) {
      if (kept(q, null)) readings.push({ subject: q.name, holds: null, value: null });
      continue;
    }
    const baseline = baselineOf(q, byQueue);
    const holds = baseline.band ? aboveBand(q.messageCount, baseline.band, rule.threshold) : null;
    if (!kept(q, holds)) continue;
    readings.push(
      baseline.band
        ? { subject: q.name, holds, value: q.messageCount }
        : { subject: q.name, holds, value: q.messageCount, why: baseline.why },
    );
  }
  return readings;
}
