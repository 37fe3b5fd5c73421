import { z } from 'zod';
import { Instant, Name, Uuid } from '../common';

/**
 * Alerting (issue 29, ADR-0013): rules per cluster on the figures Studio already holds, evaluated by
 * the cluster's owner at each tick, with each alert's state in PostgreSQL (`alert`) and every
 * transition delivered to the cluster's receivers and on `studio.v1.alerts.<clusterId>.<state>`.
 */

/**
 * What a rule watches. Queue kinds look at each queue whose name matches the rule's pattern, summed
 * over the live nodes (as the console shows it); node kinds at each node.
 */
export const ALERT_RULE_KINDS = [
  /** More than `threshold` messages waiting. */
  'queue-depth',
  /**
   * More than `threshold` times the top of the queue's usual band for this hour of the week,
   * learned from its own past weeks (docs/alerting.md, "Baselines"): unknown until two weeks of
   * history have been seen at that hour.
   */
  'queue-depth-baseline',
  /** The oldest waiting message was sent more than `threshold` seconds ago. */
  'queue-oldest-message',
  /** Messages waiting and no consumer attached. */
  'queue-no-consumers',
  /** Messages arriving (added rate above 0) while no consumer is attached: depth only grows. */
  'queue-growing-unconsumed',
  /** A poison message: messages waiting and in delivery, consumers attached, nothing acknowledged. */
  'queue-stuck-consumer',
  /** Messages arriving at all: for dead-letter and expiry queues. */
  'queue-receiving',
  /**
   * Messages wait on a node where the queue has no consumer while it has consumers on another
   * node of the cluster (docs/clusters.md, "Stranded messages"): the value is how many.
   */
  'queue-stranded',
  /** Killed (dead-lettered) per second above `threshold`. */
  'queue-killed-rate',
  /** Expired per second above `threshold`. */
  'queue-expired-rate',
  /** The address pages: its messages no longer fit in memory and go to page files. */
  'address-paging',
  /** The address holds more than `threshold` of its size limit (a fraction, 0.8 = 80%). */
  'address-limit',
  /**
   * The address reaches its size limit (where it pages, blocks or drops, by its full policy) within
   * `threshold` seconds at the rate it has grown over the last minutes.
   */
  'address-full-forecast',
  /**
   * The links between the cluster's nodes, read at tier B (docs/clusters.md). A node's cluster
   * connection is stopped, or not connected to a live member its topology lists (subject
   * `node/connection`; the value is how many members it is not connected to).
   */
  'link-down',
  /**
   * A store-and-forward queue towards another node holds messages and has delivered none for
   * `threshold` seconds: the link does not drain (subject `node → member`; the value is how long).
   */
  'link-backlog',
  /**
   * A live node is missing from the topology of another clustered node: it takes no part in load
   * balancing or redistribution (subject the missing node; the value is how many topologies lack it).
   */
  'link-node-left',
  /** The node does not answer its polls. */
  'node-unreachable',
  /** A backup is not in sync with its live node: a failover now would lose messages. */
  'node-backup-unsynced',
  /** The journal's disk is fuller than `threshold` (a fraction, 0.9 = 90%). */
  'node-disk-usage',
  /** The broker's address memory is fuller than `threshold` of its global limit. */
  'node-address-memory',
  /**
   * The journal's disk reaches the broker's `max-disk-usage` (where it blocks every producer) within
   * `threshold` seconds at the rate it has filled over the last minutes.
   */
  'node-disk-full-forecast',
  /** The node became live or backup (a failover or failback) within the last `threshold` seconds. */
  'node-role-changed',
  /**
   * Studio's own view of the cluster. The notifier's verdict: the brokers' notifications cannot be
   * subscribed to, so broker events are not seen (subject `notifications`).
   */
  'studio-notifications-unavailable',
  /** Broker events were lost (dropped past a bound) within the last `threshold` seconds (subject `events`). */
  'studio-events-dropped',
  /** No notifier replica holds the cluster: nobody subscribes to its notifications (subject `notifier`). */
  'studio-notifier-unowned',
  /**
   * No scraper polls the cluster: no replica holds its lease, or the one holding it has not
   * observed its nodes for three tier-A intervals (subject `scraper`). Evaluated by every scraper
   * replica, not by the owner, since an absent owner evaluates nothing.
   */
  'studio-scraper-unowned',
  /**
   * A period in which Studio did not observe the cluster's notifications ended within the last
   * `threshold` seconds: what the brokers sent then is not in the history (subject `observation`).
   */
  'studio-unobserved',
  /**
   * A redrive (a message job with a return guard) paused itself on bounce-back within the last
   * `threshold` seconds: its consumer still fails (subject `redrives`; the value is how many paused
   * in all, the message jobs say which).
   */
  'studio-redrive-paused',
] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** How a kind reads its threshold, for forms and descriptions; null when it takes none. */
export const ALERT_THRESHOLD_UNIT: Record<
  AlertRuleKind,
  'messages' | 'seconds' | 'per second' | 'fraction' | 'times' | null
> = {
  'queue-depth': 'messages',
  'queue-depth-baseline': 'times',
  'queue-oldest-message': 'seconds',
  'queue-no-consumers': null,
  'queue-growing-unconsumed': null,
  'queue-stuck-consumer': null,
  'queue-receiving': null,
  'queue-stranded': null,
  'queue-killed-rate': 'per second',
  'queue-expired-rate': 'per second',
  'address-paging': null,
  'address-limit': 'fraction',
  'address-full-forecast': 'seconds',
  'link-down': null,
  'link-backlog': 'seconds',
  'link-node-left': null,
  'node-unreachable': null,
  'node-backup-unsynced': null,
  'node-disk-usage': 'fraction',
  'node-address-memory': 'fraction',
  'node-disk-full-forecast': 'seconds',
  'node-role-changed': 'seconds',
  'studio-notifications-unavailable': null,
  'studio-events-dropped': 'seconds',
  'studio-notifier-unowned': null,
  'studio-scraper-unowned': null,
  'studio-unobserved': 'seconds',
  'studio-redrive-paused': 'seconds',
};

/** What a kind's alerts are about: each alert is one rule and one queue, address or node. */
export type AlertSubjectKind = 'queue' | 'address' | 'link' | 'node' | 'studio';
export const subjectKindOf = (kind: AlertRuleKind): AlertSubjectKind =>
  kind.startsWith('queue-')
    ? 'queue'
    : kind.startsWith('address-')
      ? 'address'
      : kind.startsWith('link-')
        ? 'link'
        : kind.startsWith('studio-')
          ? 'studio'
          : 'node';

/**
 * Which tick evaluates a kind's rules, each with an evaluation stamp of its own: node and Studio
 * rules after the owner's tier A, queue, address and link rules after its tier B; the one rule
 * about the owner itself (`fleet`) by every scraper replica on the tier-A interval.
 */
export type AlertRuleScope = 'tier-a' | 'tier-b' | 'fleet';
export const ruleScopeOf = (kind: AlertRuleKind): AlertRuleScope =>
  kind === 'studio-scraper-unowned'
    ? 'fleet'
    : ['queue', 'address', 'link'].includes(subjectKindOf(kind))
      ? 'tier-b'
      : 'tier-a';
/** The kinds a scope evaluates, for a query's `kind = ANY ($n)`. */
export const kindsOfScope = (scope: AlertRuleScope): AlertRuleKind[] =>
  ALERT_RULE_KINDS.filter((kind) => ruleScopeOf(kind) === scope);

/** A label name as Prometheus and Alertmanager accept it. */
export const LabelName = z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'a label name: letters, digits and _');
/** Queue, address or node names: `*` matches any run of characters. */
export const SubjectPattern = z.string().trim().min(1).max(500);

const AlertRuleFields = {
  name: Name.max(100),
  kind: z.enum(ALERT_RULE_KINDS),
  /** Which queues, addresses or nodes it watches, by name (`*` is any run of characters). */
  subjects: SubjectPattern.default('*'),
  threshold: z.number().finite().min(0).nullable().default(null),
  /** How long the condition must hold before the alert fires; until then it is pending. */
  forSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(0),
  severity: z.enum(ALERT_SEVERITIES).default('warning'),
  labels: z.record(LabelName, z.string().max(500)).default({}),
  /**
   * What the notification says, with `{{subject}}`, `{{value}}`, `{{threshold}}`, `{{cluster}}`
   * and `{{rule}}` replaced; a sentence per kind when empty.
   */
  description: z.string().max(2000).default(''),
  enabled: z.boolean().default(true),
};

const thresholdFits = (rule: { kind: AlertRuleKind; threshold: number | null }, ctx: z.RefinementCtx) => {
  const unit = ALERT_THRESHOLD_UNIT[rule.kind];
  if (unit !== null && rule.threshold === null)
    ctx.addIssue({
      code: 'custom',
      path: ['threshold'],
      message: `a ${rule.kind} rule needs a threshold (${unit})`,
    });
  if (unit === null && rule.threshold !== null)
    ctx.addIssue({ code: 'custom', path: ['threshold'], message: `a ${rule.kind} rule takes no threshold` });
  if (unit === 'fraction' && rule.threshold !== null && rule.threshold > 1)
    ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'a fraction: 0.9 is 90%' });
};

/** `POST /api/v1/clusters/{id}/alert-rules`, and `PUT …/alert-rules/{ruleId}` with the whole rule again. */
export const CreateAlertRuleRequestSchema = z.object(AlertRuleFields).strict().superRefine(thresholdFits);
export type CreateAlertRuleRequest = z.infer<typeof CreateAlertRuleRequestSchema>;
export type CreateAlertRuleInput = z.input<typeof CreateAlertRuleRequestSchema>;

export const AlertRuleSchema = z.object({
  id: Uuid,
  clusterId: Uuid,
  name: z.string(),
  kind: z.enum(ALERT_RULE_KINDS),
  subjects: z.string(),
  threshold: z.number().nullable(),
  forSeconds: z.number().int(),
  severity: z.enum(ALERT_SEVERITIES),
  labels: z.record(z.string(), z.string()),
  description: z.string(),
  enabled: z.boolean(),
  createdAt: Instant,
  updatedAt: Instant,
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;
export const AlertRuleListSchema = z.object({ items: z.array(AlertRuleSchema) });
export type AlertRuleList = z.infer<typeof AlertRuleListSchema>;

/**
 * `POST /api/v1/clusters/{id}/alert-rules/test`: a rule (saved or not) read against the figures of
 * the owner's last ticks; nothing is stored and nobody is told. Each matched subject says whether
 * the condition holds now (`null`: its figure is not known, a rate before its second tick, say);
 * holding ones first, at most `READINGS_SHOWN`.
 */
export const AlertRuleTestSchema = z.object({
  /** When the figures it was read against were observed. */
  observedAt: Instant.nullable(),
  matched: z.number().int(),
  holding: z.number().int(),
  unknown: z.number().int(),
  readings: z.array(
    z.object({
      subject: z.string(),
      holds: z.boolean().nullable(),
      value: z.number().nullable(),
      /** Why this subject's figure is not known, where the rule can say (a baseline without a band). */
      why: z.string().optional(),
    }),
  ),
  /** Why some or all figures are not known yet, when that is so. */
  note: z.string().nullable(),
});
export type AlertRuleTest = z.infer<typeof AlertRuleTestSchema>;
export const ALERT_RULE_TEST_READINGS_SHOWN = 50;
