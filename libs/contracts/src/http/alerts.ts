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
   * A period in which Studio did not observe the cluster's notifications ended within the last
   * `threshold` seconds: what the brokers sent then is not in the history (subject `observation`).
   */
  'studio-unobserved',
] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** How a kind reads its threshold, for forms and descriptions; null when it takes none. */
export const ALERT_THRESHOLD_UNIT: Record<
  AlertRuleKind,
  'messages' | 'seconds' | 'per second' | 'fraction' | null
> = {
  'queue-depth': 'messages',
  'queue-oldest-message': 'seconds',
  'queue-no-consumers': null,
  'queue-growing-unconsumed': null,
  'queue-stuck-consumer': null,
  'queue-receiving': null,
  'queue-killed-rate': 'per second',
  'queue-expired-rate': 'per second',
  'address-paging': null,
  'address-limit': 'fraction',
  'address-full-forecast': 'seconds',
  'node-unreachable': null,
  'node-backup-unsynced': null,
  'node-disk-usage': 'fraction',
  'node-address-memory': 'fraction',
  'node-disk-full-forecast': 'seconds',
  'node-role-changed': 'seconds',
  'studio-notifications-unavailable': null,
  'studio-events-dropped': 'seconds',
  'studio-notifier-unowned': null,
  'studio-unobserved': 'seconds',
};

/** What a kind's alerts are about: each alert is one rule and one queue, address or node. */
export type AlertSubjectKind = 'queue' | 'address' | 'node' | 'studio';
export const subjectKindOf = (kind: AlertRuleKind): AlertSubjectKind =>
  kind.startsWith('queue-')
    ? 'queue'
    : kind.startsWith('address-')
      ? 'address'
      : kind.startsWith('studio-')
        ? 'studio'
        : 'node';

/** A label name as Prometheus and Alertmanager accept it. */
const LabelName = z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'a label name: letters, digits and _');
/** Queue, address or node names: `*` matches any run of characters. */
const SubjectPattern = z.string().trim().min(1).max(500);

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
    z.object({ subject: z.string(), holds: z.boolean().nullable(), value: z.number().nullable() }),
  ),
  /** Why some or all figures are not known yet, when that is so. */
  note: z.string().nullable(),
});
export type AlertRuleTest = z.infer<typeof AlertRuleTestSchema>;
export const ALERT_RULE_TEST_READINGS_SHOWN = 50;

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

export const AlertListQuerySchema = z
  .object({
    cluster: Uuid.optional(),
    state: z.enum(['active', ...ALERT_STATES]).default('active'),
    severity: z.enum(ALERT_SEVERITIES).optional(),
    rule: Uuid.optional(),
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

/**
 * Where a cluster's alerts are sent. `alertmanager`: its v2 API (`POST {url}/api/v2/alerts`),
 * re-posted while firing so it never times an alert out. `webhook`: a JSON POST signed with
 * HMAC-SHA256 over `{timestamp}.{body}` (headers `X-Studio-Timestamp`, `X-Studio-Signature`).
 * `slack` and `teams`: their incoming webhooks, in their own message shapes; the webhook's URL is
 * its credential, so it is sealed and shown by its host only. `email`: over SMTP, STARTTLS
 * required on `smtp://` (implicit TLS on `smtps://`), with a password sealed like any secret.
 */
export const ALERT_RECEIVER_KINDS = ['alertmanager', 'webhook', 'slack', 'teams', 'email'] as const;
export type AlertReceiverKind = (typeof ALERT_RECEIVER_KINDS)[number];

const noCredentialsInUrl = (url: string) => !/^[a-z]+:\/\/[^/]*@/.test(url);
const ReceiverUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(2000)
  // It is stored and shown to admins as it is: a password belongs in no URL.
  .refine(noCredentialsInUrl, 'a user or password in the URL is not accepted');
/** A Slack or Teams incoming webhook: the URL is the credential, sealed and never shown again. */
const ChatWebhookUrl = z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).max(2000);
const SmtpUrl = z
  .url({ protocol: /^smtps?$/, error: 'must be smtp://host:port (STARTTLS) or smtps://host:port (TLS)' })
  .max(500)
  .refine(noCredentialsInUrl, 'the user goes in email.user, the password in secret');
const SigningSecret = z.string().min(16).max(500);

export const EmailSettingsSchema = z
  .object({
    from: z.email().max(320),
    to: z.array(z.email().max(320)).min(1).max(20),
    /** The SMTP login; its password is the receiver's `secret`. None: the server takes mail unauthenticated. */
    user: z.string().min(1).max(200).optional(),
  })
  .strict();
export type EmailSettings = z.infer<typeof EmailSettingsSchema>;

const ReceiverCommon = {
  name: Name.max(100),
  /** Alerts below this severity are not sent here. */
  minSeverity: z.enum(ALERT_SEVERITIES).default('warning'),
  enabled: z.boolean().default(true),
};

export const CreateReceiverRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('alertmanager'), url: ReceiverUrl, ...ReceiverCommon }).strict(),
  z
    .object({
      kind: z.literal('webhook'),
      url: ReceiverUrl,
      /** The signing secret; sealed, never shown again. */
      secret: SigningSecret.optional(),
      ...ReceiverCommon,
    })
    .strict()
    .refine((r) => r.secret !== undefined, {
      path: ['secret'],
      message: 'a webhook needs a signing secret (16 characters or more)',
    }),
  z
    .object({
      kind: z.enum(['slack', 'teams']),
      /** The incoming webhook's URL; sealed, shown by its host only. */
      secret: ChatWebhookUrl,
      ...ReceiverCommon,
    })
    .strict(),
  z
    .object({
      kind: z.literal('email'),
      url: SmtpUrl,
      email: EmailSettingsSchema,
      /** The SMTP password, for `email.user`; sealed, never shown again. */
      secret: z.string().min(1).max(500).optional(),
      ...ReceiverCommon,
    })
    .strict(),
]);
export type CreateReceiverRequest = z.infer<typeof CreateReceiverRequestSchema>;
export type CreateReceiverInput = z.input<typeof CreateReceiverRequestSchema>;

/**
 * `PUT …/alert-receivers/{receiverId}`: the kind stays; a field left out keeps what is stored (the
 * secret above all: it is never shown, so it is given again only to change it).
 */
export const UpdateReceiverRequestSchema = z
  .object({
    url: z.string().max(2000).optional(),
    email: EmailSettingsSchema.optional(),
    secret: z.string().min(1).max(2000).optional(),
    ...ReceiverCommon,
  })
  .strict();
export type UpdateReceiverRequest = z.infer<typeof UpdateReceiverRequestSchema>;

/** An update's fields checked against the receiver's kind: what the create would have refused. */
export function updateProblem(kind: AlertReceiverKind, update: UpdateReceiverRequest): string | null {
  const check = (schema: z.ZodType, value: unknown, field: string) => {
    const result = schema.safeParse(value);
    return result.success ? null : `${field}: ${result.error.issues[0]?.message ?? 'not valid'}`;
  };
  if (update.url !== undefined) {
    if (kind === 'slack' || kind === 'teams') return 'url: a chat webhook is given as its secret';
    const problem = check(kind === 'email' ? SmtpUrl : ReceiverUrl, update.url, 'url');
    if (problem) return problem;
  }
  if (update.email !== undefined && kind !== 'email') return `email: a ${kind} receiver sends no email`;
  if (update.secret !== undefined) {
    if (kind === 'alertmanager') return 'secret: an Alertmanager receiver takes none';
    if (kind === 'webhook') return check(SigningSecret, update.secret, 'secret');
    if (kind === 'slack' || kind === 'teams') return check(ChatWebhookUrl, update.secret, 'secret');
  }
  return null;
}

export const ReceiverSchema = z.object({
  id: Uuid,
  clusterId: Uuid,
  name: z.string(),
  kind: z.enum(ALERT_RECEIVER_KINDS),
  /** Where it sends; a chat webhook by its host only (`https://hooks.slack.com/…`). */
  url: z.string(),
  /** An email receiver's sender, recipients and login. */
  email: EmailSettingsSchema.nullable(),
  minSeverity: z.enum(ALERT_SEVERITIES),
  /** Whether a secret is sealed; the secret itself is never returned. */
  hasSecret: z.boolean(),
  enabled: z.boolean(),
});
export type Receiver = z.infer<typeof ReceiverSchema>;
export const ReceiverListSchema = z.object({ items: z.array(ReceiverSchema) });
export type ReceiverList = z.infer<typeof ReceiverListSchema>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One notification of one transition to one receiver (`null`: the NATS subject), with its tries. */
export const DeliverySchema = z.object({
  id: z.string(),
  alertId: Uuid,
  receiverId: Uuid.nullable(),
  receiverName: z.string(),
  transition: z.enum(['firing', 'resolved']),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  createdAt: Instant,
  nextAttemptAt: Instant.nullable(),
  deliveredAt: Instant.nullable(),
  lastError: z.string().nullable(),
});
export type Delivery = z.infer<typeof DeliverySchema>;
export const DeliveryListSchema = z.object({ items: z.array(DeliverySchema) });
export type DeliveryList = z.infer<typeof DeliveryListSchema>;
/** `GET …/alert-deliveries`: of one alert, or the cluster's newest. */
export const DeliveryQuerySchema = z
  .object({ alert: Uuid.optional(), limit: z.coerce.number().int().min(1).max(500).default(100) })
  .strict();
export type DeliveryQuery = z.infer<typeof DeliveryQuerySchema>;

/** What an alert says when its rule has no description of its own. */
const DEFAULT_DESCRIPTIONS: Record<AlertRuleKind, string> = {
  'queue-depth': 'Queue {{subject}} holds {{value}} messages (threshold {{threshold}}).',
  'queue-oldest-message':
    "Queue {{subject}}'s oldest message has waited {{value}} s (threshold {{threshold}} s).",
  'queue-no-consumers': 'Queue {{subject}} holds {{value}} messages and has no consumer.',
  'queue-growing-unconsumed': 'Queue {{subject}} receives {{value}} messages/s and has no consumer.',
  'queue-stuck-consumer':
    'Queue {{subject}} has {{value}} messages in delivery and acknowledges none: a consumer may be stuck on the message at its head.',
  'queue-receiving': 'Queue {{subject}} is receiving messages ({{value}}/s).',
  'queue-killed-rate': 'Queue {{subject}} dead-letters {{value}} messages/s (threshold {{threshold}}).',
  'queue-expired-rate': 'Queue {{subject}} expires {{value}} messages/s (threshold {{threshold}}).',
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
  'studio-unobserved':
    "Cluster {{cluster}}'s notifications went unobserved for {{value}} s: what its brokers sent then is not in the history.",
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

/**
 * The rules offered on a cluster's Alerting screen until saved (each is off until an admin saves
 * it): what an on-call team wants of any cluster, where nothing about its queues is known yet.
 * Queue rules on every queue are left out: DLQ and expiry queues hold old messages with no
 * consumer by design, and would fire at once.
 */
export const SUGGESTED_ALERT_RULES: readonly CreateAlertRuleInput[] = [
  { name: 'Node unreachable', kind: 'node-unreachable', forSeconds: 60, severity: 'critical' },
  { name: 'Backup not in sync', kind: 'node-backup-unsynced', forSeconds: 300, severity: 'critical' },
  { name: 'Failover or failback', kind: 'node-role-changed', threshold: 900, severity: 'warning' },
  {
    name: 'Journal disk nearly full',
    kind: 'node-disk-usage',
    threshold: 0.85,
    forSeconds: 300,
    severity: 'warning',
  },
  {
    name: 'Journal disk full within the hour',
    kind: 'node-disk-full-forecast',
    threshold: 3600,
    forSeconds: 300,
    severity: 'critical',
  },
  {
    name: 'Address memory high',
    kind: 'node-address-memory',
    threshold: 0.8,
    forSeconds: 300,
    severity: 'warning',
  },
  { name: 'Address paging', kind: 'address-paging', forSeconds: 300, severity: 'warning' },
  {
    name: 'Address full within 30 minutes',
    kind: 'address-full-forecast',
    threshold: 1800,
    forSeconds: 120,
    severity: 'warning',
  },
  { name: 'Stuck consumer', kind: 'queue-stuck-consumer', forSeconds: 300, severity: 'critical' },
  {
    name: 'Broker events not seen',
    kind: 'studio-notifications-unavailable',
    forSeconds: 300,
    severity: 'warning',
  },
  { name: 'Broker events lost', kind: 'studio-events-dropped', threshold: 900, severity: 'warning' },
  { name: 'No notifier', kind: 'studio-notifier-unowned', forSeconds: 120, severity: 'critical' },
  { name: 'Events unobserved', kind: 'studio-unobserved', threshold: 900, severity: 'info' },
  { name: 'Dead letters arriving', kind: 'queue-receiving', subjects: '*DLQ*', severity: 'warning' },
];
