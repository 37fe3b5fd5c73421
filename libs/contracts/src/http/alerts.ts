import { z } from 'zod';
import { Instant, Uuid } from '../common';
import {
  ALERT_RULE_KINDS,
  ALERT_SEVERITIES,
  ALERT_THRESHOLD_UNIT,
  SubjectPattern,
  type AlertRuleKind,
} from './alert-rules';

/**
 * An alert's life: `pending` while its condition holds for less than the rule's `for`, `firing`
 * after, `resolved` once the condition no longer holds (or its queue or node is gone, or its rule
 * was disabled or deleted). A pending alert whose condition clears is dropped, never notified.
 */
export const ALERT_STATES = ['pending', 'firing', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const AlertSchema = z.object({
  id: Uuid,
  clusterId: Uuid,
  clusterName: z.string(),
  ruleId: Uuid,
  ruleName: z.string(),
  kind: z.enum(ALERT_RULE_KINDS),
  severity: z.enum(ALERT_SEVERITIES),
  /** The rule's own labels, passed on to Alertmanager with `alertname`, `cluster`, `severity` and the subject. */
  labels: z.record(z.string(), z.string()),
  /** The queue, address or node it is about. */
  subject: z.string(),
  state: z.enum(ALERT_STATES),
  /** The figure that last decided its state (depth, seconds, rate, fraction; 1 for a yes/no condition). */
  value: z.number().nullable(),
  threshold: z.number().nullable(),
  description: z.string(),
  /** When the condition was first seen to hold. */
  startedAt: Instant,
  firedAt: Instant.nullable(),
  endedAt: Instant.nullable(),
  /** Why it ended: the condition cleared, the subject is gone, the rule was disabled. */
  endReason: z.string().nullable(),
  lastEvaluatedAt: Instant,
  /** A silence covers it now: it is still evaluated, and not notified. */
  silencedBy: Uuid.nullable(),
});
export type Alert = z.infer<typeof AlertSchema>;

/**
 * `GET /api/v1/clusters/{id}/alerts/{alertId}/actions`: what people did to the alert's queue or
 * address around it (issue 61, item 1), from the audit trail: each change that succeeded on that
 * subject from an hour before the condition first held to an hour after the alert ended (or now),
 * oldest first, at most `ALERT_ACTIONS_SHOWN`. Who acted, and the counts the action reported (how
 * many purged, moved, sent); the audit row's address and request id stay the administrators'.
 */
export const SubjectActionSchema = z.object({
  at: Instant,
  /** The audit trail's action: `queue.purge`, `message-job.start`, … */
  action: z.string(),
  actor: z.string(),
  /** The numbers the action reported, by name (`removed`, `moved`, …). */
  counts: z.record(z.string(), z.number()),
});
export type SubjectAction = z.infer<typeof SubjectActionSchema>;
export const SubjectActionListSchema = z.object({ items: z.array(SubjectActionSchema) });
export type SubjectActionList = z.infer<typeof SubjectActionListSchema>;
export const ALERT_ACTIONS_SHOWN = 100;

export const AlertListQuerySchema = z
  .object({
    cluster: Uuid.optional(),
    state: z.enum(['active', ...ALERT_STATES]).default('active'),
    severity: z.enum(ALERT_SEVERITIES).optional(),
    rule: Uuid.optional(),
    /** `true`: only the alerts a silence covers now; `false`: only those none does. */
    silenced: z.enum(['true', 'false']).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(200),
  })
  .strict();
export type AlertListQuery = z.infer<typeof AlertListQuerySchema>;
export const AlertListSchema = z.object({ items: z.array(AlertSchema) });
export type AlertList = z.infer<typeof AlertListSchema>;

/**
 * `GET /api/v1/alerts/summary`: what the header shows. A cluster whose rules were not evaluated
 * within twice their interval is listed in `unevaluated`: its count cannot be trusted, and the
 * header is never green while one is.
 */
export const AlertSummarySchema = z.object({
  firing: z.number().int(),
  pending: z.number().int(),
  silenced: z.number().int(),
  bySeverity: z.record(z.enum(ALERT_SEVERITIES), z.number().int()),
  unevaluated: z.array(
    z.object({
      clusterId: Uuid,
      clusterName: z.string(),
      /** When its rules were last evaluated, or null when never. */
      evaluatedAt: Instant.nullable(),
      reason: z.string(),
    }),
  ),
});
export type AlertSummary = z.infer<typeof AlertSummarySchema>;

/** `POST /api/v1/clusters/{id}/alert-silences`: mutes matching alerts until `endsAt`, with a reason. */
export const CreateSilenceRequestSchema = z
  .object({
    /** One rule, or every rule of the cluster when absent. */
    ruleId: Uuid.optional(),
    subjects: SubjectPattern.default('*'),
    endsAt: Instant,
    reason: z.string().trim().min(1).max(1000),
  })
  .strict();
export type CreateSilenceRequest = z.infer<typeof CreateSilenceRequestSchema>;

export const SilenceSchema = z.object({
  id: Uuid,
  clusterId: Uuid,
  ruleId: Uuid.nullable(),
  subjects: z.string(),
  startsAt: Instant,
  endsAt: Instant,
  reason: z.string(),
  createdBy: z.string(),
  /** Ended before its time by someone. */
  endedEarlyAt: Instant.nullable(),
});
export type Silence = z.infer<typeof SilenceSchema>;
export const SilenceListSchema = z.object({ items: z.array(SilenceSchema) });
export type SilenceList = z.infer<typeof SilenceListSchema>;

/** What an alert says when its rule has no description of its own. */
const DEFAULT_DESCRIPTIONS: Record<AlertRuleKind, string> = {
  'queue-depth': 'Queue {{subject}} holds {{value}} messages (threshold {{threshold}}).',
  'queue-depth-baseline':
    'Queue {{subject}} holds {{value}} messages, over {{threshold}}× the top of its usual depth at this hour of the week.',
  'queue-oldest-message':
    "Queue {{subject}}'s oldest message has waited {{value}} s (threshold {{threshold}} s).",
  'queue-no-consumers': 'Queue {{subject}} holds {{value}} messages and has no consumer.',
  'queue-growing-unconsumed': 'Queue {{subject}} receives {{value}} messages/s and has no consumer.',
  'queue-stuck-consumer':
    'Queue {{subject}} has {{value}} messages in delivery and acknowledges none: a consumer may be stuck on the message at its head.',
  'queue-receiving': 'Queue {{subject}} is receiving messages ({{value}}/s).',
  'queue-stranded':
    'Queue {{subject}} has {{value}} messages waiting on a node without consumers while its consumers are on another node.',
  'queue-killed-rate': 'Queue {{subject}} dead-letters {{value}} messages/s (threshold {{threshold}}).',
  'queue-expired-rate': 'Queue {{subject}} expires {{value}} messages/s (threshold {{threshold}}).',
  'link-down':
    'Cluster connection {{subject}} is stopped or not connected to {{value}} of the members its topology lists.',
  'link-backlog':
    'The store-and-forward link {{subject}} holds messages and has delivered none for {{value}} s (threshold {{threshold}} s): it does not drain.',
  'link-node-left':
    'Node {{subject}} is missing from the topology of {{value}} other clustered node(s): it takes no part in load balancing or redistribution.',
  'node-unreachable': 'Node {{subject}} does not answer its polls.',
  'node-backup-unsynced':
    'Backup {{subject}} is not in sync with its live node: a failover now would lose messages.',
  'node-disk-usage': "Node {{subject}}'s journal disk is {{value}} full (threshold {{threshold}}).",
  'node-address-memory':
    "Node {{subject}}'s address memory is {{value}} of its limit (threshold {{threshold}}).",
  'node-disk-full-forecast':
    "Node {{subject}}'s journal disk reaches the broker's limit in {{value}} s at its current rate, and then every producer blocks (threshold {{threshold}} s).",
  'node-role-changed': 'Node {{subject}} changed role (failover or failback) {{value}} s ago.',
  'studio-notifications-unavailable':
    "Studio cannot subscribe to cluster {{cluster}}'s notifications: broker events are not seen (the cluster's overview says why).",
  'studio-events-dropped': 'Broker events of cluster {{cluster}} were lost ({{value}} dropped in all).',
  'studio-notifier-unowned':
    "No notifier holds cluster {{cluster}}: nobody subscribes to its brokers' notifications.",
  'studio-scraper-unowned':
    'No scraper polls cluster {{cluster}}: its figures are {{value}} s old, and its other rules are not evaluated.',
  'studio-unobserved':
    "Cluster {{cluster}}'s notifications went unobserved for {{value}} s: what its brokers sent then is not in the history.",
  'studio-redrive-paused':
    "A redrive on cluster {{cluster}} paused itself: the messages it sent came back to the dead-letter queue, so their consumer still fails ({{value}} paused in all; the queue's message jobs say which).",
  'address-paging': 'Address {{subject}} is paging ({{value}} page files).',
  'address-limit': 'Address {{subject}} holds {{value}} of its size limit (threshold {{threshold}}).',
  'address-full-forecast':
    'Address {{subject}} reaches its size limit in {{value}} s at its current rate (threshold {{threshold}} s).',
};

/** A figure of a kind's alert as people read it (90% for a fraction; whole seconds); `unknown` for null. */
export const shownFigure = (kind: AlertRuleKind, n: number | null): string => {
  if (n === null) return 'unknown';
  if (ALERT_THRESHOLD_UNIT[kind] === 'fraction') return `${Math.round(n * 1000) / 10}%`;
  if (ALERT_THRESHOLD_UNIT[kind] === 'seconds') return String(Math.round(n));
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
};

/** An alert's sentence: the rule's template (or its kind's) with its figures filled in. */
export function describeAlert(a: {
  kind: AlertRuleKind;
  template: string;
  subject: string;
  value: number | null;
  threshold: number | null;
  cluster: string;
  rule: string;
}): string {
  const fields: Record<string, string> = {
    subject: a.subject,
    value: shownFigure(a.kind, a.value),
    threshold: shownFigure(a.kind, a.threshold),
    cluster: a.cluster,
    rule: a.rule,
  };
  const template = a.template.trim() === '' ? DEFAULT_DESCRIPTIONS[a.kind] : a.template;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => fields[name] ?? whole);
}
