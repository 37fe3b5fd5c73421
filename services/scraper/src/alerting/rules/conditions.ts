import { globMatcher, type AlertRuleKind } from '@artemis-studio/contracts';
import type { NodeFact } from '../../polling/tick-observer';
import type { AddressFact } from './address-facts';
import type { Baseline } from '@artemis-studio/db';
import { readBaselines, type QueueBaselines } from './baseline-readings';
import type { SubjectIndex } from './subject-index';

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
  /** Messages on the nodes where it has no consumer: stranded when it has consumers elsewhere. */
  unconsumedMessages: number;
  /** No node observed it lately (its tier could not be read): every figure is unknown. */
  stale?: boolean;
  /**
   * Its usual band (ADR-0039), kept on the fact for the bands it was taken from: a property read
   * at each tick of the hour, where a lookup per queue and rule made baseline rules cost three
   * times the others (docs/benchmarks.md, alerting).
   */
  bandsRead?: object | null;
  baseline?: Baseline | null;
}

/** A node as its last tier-A poll saw it. */
/** A node with what the ticks before this one tell of it (alerting/node-history.ts). */
export interface NodeFigures extends NodeFact {
  /** Seconds until its journal disk reaches `diskLimit` at its recent rate (Infinity: not filling). */
  diskFullInSeconds: number | null;
}

/**
 * Whether a rule's condition holds for one subject, with the figure that decided it. `holds: null`
 * is "unknown" (the figure is not known this tick): an alert neither fires nor resolves on it.
 */
export interface Reading {
  subject: string;
  holds: boolean | null;
  value: number | null;
  /** Why the figure is not known, where the rule can say (a baseline without a band). */
  why?: string;
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

function put(out: Reading, subject: string, holds: boolean | null, value: number | null): Reading {
  out.subject = subject;
  out.holds = holds;
  out.value = value;
  return out;
}

function putOver(out: Reading, subject: string, value: number | null, threshold: number | null): Reading {
  return value === null || threshold === null
    ? put(out, subject, null, null)
    : put(out, subject, value > threshold, value);
}

/**
 * The kinds that read a rate or a forecast, which only the ticks before this one give: read against
 * a single tick (a rule test with no rule of its subject in force), they are unknown.
 */
export const READS_PAST_TICKS: ReadonlySet<AlertRuleKind> = new Set<AlertRuleKind>([
  'queue-growing-unconsumed',
  'queue-stuck-consumer',
  'queue-receiving',
  'queue-killed-rate',
  'queue-expired-rate',
  'address-full-forecast',
]);

/** Sets `out` to one queue's reading: written in place, as a rule over every queue reads thousands a tick. */
function readQueue(rule: RuleCondition, q: QueueFact, now: Date, out: Reading): Reading {
  const name = q.name;
  if (q.stale) return put(out, name, null, null);
  switch (rule.kind) {
    case 'queue-depth':
      return putOver(out, name, q.messageCount, rule.threshold);
    case 'queue-oldest-message':
      if (q.messageCount === 0) return put(out, name, false, 0);
      return q.firstMessageAt === null
        ? put(out, name, null, null)
        : putOver(
            out,
            name,
            Math.max(0, (now.getTime() - q.firstMessageAt.getTime()) / 1000),
            rule.threshold,
          );
    case 'queue-no-consumers':
      return put(out, name, q.consumerCount === 0 && q.messageCount > 0, q.messageCount);
    case 'queue-growing-unconsumed':
      return q.addedPerSecond === null
        ? put(out, name, null, null)
        : put(out, name, q.consumerCount === 0 && q.addedPerSecond > 0, q.addedPerSecond);
    case 'queue-stuck-consumer':
      if (q.acknowledgedPerSecond === null) return put(out, name, null, null);
      return put(
        out,
        name,
        q.messageCount > 0 && q.deliveringCount > 0 && q.consumerCount > 0 && q.acknowledgedPerSecond === 0,
        q.deliveringCount,
      );
    case 'queue-stranded': {
      const stranded = q.consumerCount > 0 ? q.unconsumedMessages : 0;
      return put(out, name, stranded > 0, stranded);
    }
    case 'queue-receiving':
      return q.addedPerSecond === null
        ? put(out, name, null, null)
        : put(out, name, q.addedPerSecond > 0, q.addedPerSecond);
    case 'queue-killed-rate':
      return putOver(out, name, q.killedPerSecond, rule.threshold);
    case 'queue-expired-rate':
      return putOver(out, name, q.expiredPerSecond, rule.threshold);
    default:
      return put(out, name, null, null);
  }
}

/** Holds when `seconds` is under the threshold: a forecast that is null is unknown, Infinity never. */
const sooner = (subject: string, seconds: number | null, threshold: number | null): Reading =>
  seconds === null || threshold === null
    ? unknown(subject)
    : seconds === Infinity
      ? { subject, holds: false, value: null }
      : { subject, holds: seconds < threshold, value: seconds };

function nodeReading(rule: RuleCondition, n: NodeFigures, now: Date): Reading {
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
    case 'node-disk-full-forecast':
      return sooner(n.name, n.diskFullInSeconds, rule.threshold);
    case 'node-role-changed': {
      if (n.roleChangedAt === null || rule.threshold === null) return yesNo(n.name, false, 0);
      const ago = (now.getTime() - n.roleChangedAt.getTime()) / 1000;
      return yesNo(n.name, ago < rule.threshold, ago);
    }
    default:
      return unknown(n.name);
  }
}

/**
 * The readings of the queues the rule's pattern matches. Given `open` (the subjects the rule has an
 * open alert on), only the readings an evaluation acts on: those that hold, and those of open
 * alerts; a queue whose condition does not hold and has no alert needs nothing.
 */
export function readQueues(
  rule: RuleCondition,
  queues: SubjectIndex<QueueFact>,
  now: Date,
  open?: ReadonlySet<string>,
  baselines?: QueueBaselines,
): Reading[] {
  const readings: Reading[] = [];
  if (rule.kind === 'queue-depth-baseline') return readBaselines(rule, queues, open, baselines);
  const scratch: Reading = { subject: '', holds: null, value: null };
  const watched = open && open.size > 0 ? open : null;
  for (const q of queues.select(rule.subjects)) {
    const reading = readQueue(rule, q, now, scratch);
    if (!open || reading.holds === true || watched?.has(q.name)) readings.push({ ...reading });
  }
  return readings;
}

/** One reading per node the rule's pattern matches. */
export function readNodes(rule: RuleCondition, nodes: readonly NodeFigures[], now: Date): Reading[] {
  const matches = globMatcher(rule.subjects);
  return nodes.filter((n) => matches(n.name)).map((n) => nodeReading(rule, n, now));
}

function addressReading(rule: RuleCondition, a: AddressFact): Reading {
  if (a.stale) return unknown(a.name);
  switch (rule.kind) {
    case 'address-paging':
      return yesNo(a.name, a.paging, a.pages);
    case 'address-limit':
      return above(a.name, a.limitFraction, rule.threshold);
    case 'address-full-forecast':
      return sooner(a.name, a.secondsUntilFull, rule.threshold);
    default:
      return unknown(a.name);
  }
}

/** The readings of the addresses the rule's pattern matches: as `readQueues`, only those acted on. */
export function readAddresses(
  rule: RuleCondition,
  addresses: SubjectIndex<AddressFact>,
  open?: ReadonlySet<string>,
): Reading[] {
  const readings: Reading[] = [];
  for (const a of addresses.select(rule.subjects)) {
    const reading = addressReading(rule, a);
    if (!open || reading.holds === true || open.has(a.name)) readings.push(reading);
  }
  return readings;
}

/** What Studio itself knows of a cluster's observation, read at tier A when a rule asks for it. */
export interface StudioFacts {
  /** The notifier's verdict on the notifications; null when it gave none yet. */
  notifications: 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN' | null;
  /** Broker events lost in all, and when the last were. */
  dropped: number;
  lastDropAt: Date | null;
  /** Whether a notifier replica holds the cluster's lease now. */
  notifierOwned: boolean;
  /** The last unobserved period recorded in the history: when it ended, and how long it was (null: unknown). */
  lastUnobserved: { until: Date; seconds: number | null } | null;
  /** Message jobs its return guard paused, in all, and when the last one did. */
  redrivesPaused: number;
  lastRedrivePausedAt: Date | null;
}

/** The subject each Studio rule is about: one per cluster. */
const STUDIO_SUBJECTS = {
  'studio-notifications-unavailable': 'notifications',
  'studio-events-dropped': 'events',
  'studio-notifier-unowned': 'notifier',
  'studio-unobserved': 'observation',
  'studio-redrive-paused': 'redrives',
} as const;

/** Whether `at` was less than `threshold` seconds before now. */
const within = (at: Date | null, threshold: number | null, now: Date): boolean =>
  at !== null && threshold !== null && now.getTime() - at.getTime() < threshold * 1000;

/** A Studio rule's one reading (none when its pattern does not name its subject). */
export function readStudio(rule: RuleCondition, facts: StudioFacts, now: Date): Reading[] {
  if (!(rule.kind in STUDIO_SUBJECTS)) return [];
  const subject = STUDIO_SUBJECTS[rule.kind as keyof typeof STUDIO_SUBJECTS];
  if (!globMatcher(rule.subjects)(subject)) return [];
  switch (rule.kind) {
    case 'studio-notifications-unavailable':
      return [
        facts.notifications === null || facts.notifications === 'UNKNOWN'
          ? unknown(subject)
          : yesNo(
              subject,
              facts.notifications === 'UNAVAILABLE',
              facts.notifications === 'UNAVAILABLE' ? 1 : 0,
            ),
      ];
    case 'studio-events-dropped':
      return [yesNo(subject, within(facts.lastDropAt, rule.threshold, now), facts.dropped)];
    case 'studio-redrive-paused':
      return [yesNo(subject, within(facts.lastRedrivePausedAt, rule.threshold, now), facts.redrivesPaused)];
    case 'studio-notifier-unowned':
      return [yesNo(subject, !facts.notifierOwned, facts.notifierOwned ? 0 : 1)];
    case 'studio-unobserved': {
      const last = facts.lastUnobserved;
      const recent =
        last !== null &&
        rule.threshold !== null &&
        now.getTime() - last.until.getTime() < rule.threshold * 1000;
      return [{ subject, holds: recent, value: recent ? last.seconds : 0 }];
    }
    default:
      return [];
  }
}
