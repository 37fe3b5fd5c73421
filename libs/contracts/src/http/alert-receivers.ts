import { z } from 'zod';
import { Instant, Name, Uuid } from '../common';
import { ALERT_SEVERITIES, LabelName } from './alert-rules';

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
  /**
   * Only the alerts whose rule carries each of these labels (`{"team": "payments"}`): two teams
   * share a cluster and each hears of its own. Empty: every alert of its severity.
   */
  matchers: z.record(LabelName, z.string().max(500)).default({}),
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
  /** Only alerts whose rule carries each of these labels; empty for every alert. */
  matchers: z.record(z.string(), z.string()),
  /** Whether a secret is sealed; the secret itself is never returned. */
  hasSecret: z.boolean(),
  enabled: z.boolean(),
});
export type Receiver = z.infer<typeof ReceiverSchema>;
export const ReceiverListSchema = z.object({ items: z.array(ReceiverSchema) });
export type ReceiverList = z.infer<typeof ReceiverListSchema>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One notification of one transition to one receiver (`null`: the NATS subject), with its tries. */
/** A delivery tells of an alert firing or resolving, or is a receiver's test (no alert). */
export const DELIVERY_TRANSITIONS = ['firing', 'resolved', 'test'] as const;
export type DeliveryTransition = (typeof DELIVERY_TRANSITIONS)[number];

export const DeliverySchema = z.object({
  id: z.string(),
  /** Null for a receiver's test notification. */
  alertId: Uuid.nullable(),
  receiverId: Uuid.nullable(),
  receiverName: z.string(),
  transition: z.enum(DELIVERY_TRANSITIONS),
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
