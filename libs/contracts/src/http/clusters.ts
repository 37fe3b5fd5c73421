import { z } from 'zod';
import { CapabilityVerdictSchema } from '../bus/capability';
import { Instant, Name, Uuid } from '../common';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });
const amqpUrl = z.url({ protocol: /^amqps?$/, error: 'must be an amqp:// or amqps:// URL' });

const NodeInputSchema = z
  .object({
    name: Name.max(100),
    jolokiaUrl: httpUrl,
    amqpUrl: amqpUrl.optional(),
  })
  .strict();

export const CredentialSchema = z
  .object({ username: z.string().min(1).max(200), password: z.string().max(1000) })
  .strict();
export type Credential = z.infer<typeof CredentialSchema>;

const CredentialsInputSchema = z
  .object({ jolokia: CredentialSchema.optional(), amqp: CredentialSchema.optional() })
  .strict();

const nodeList = z
  .array(NodeInputSchema)
  .min(1)
  .max(64)
  .refine((nodes) => new Set(nodes.map((n) => n.name)).size === nodes.length, 'node names must be unique');

/** Who may read message bodies on a cluster: a role, at least operator by default. */
export const MESSAGE_BODY_ROLES = ['viewer', 'operator', 'admin'] as const;
export type MessageBodyRole = (typeof MESSAGE_BODY_ROLES)[number];

/** `$.customer.email`, `$.items[*].card`, `$.cards[0]`: names, `*` and indexes after `$`. */
export const BODY_PATH = /^\$((\.[A-Za-z_$][\w$-]*)|(\[(\*|\d+)\]))+$/;

/**
 * What is masked in a browsed message before it leaves the gateway: properties by name (the
 * broker's name, or the name without its section, `applicationProperties.email` or `email`) and
 * values at JSON paths in a JSON body. A body that is not JSON (or is cut) is withheld whole while
 * any body path is set: a rule that cannot be applied must not let the value through.
 */
export const MaskingRulesSchema = z
  .object({
    properties: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
    bodyPaths: z
      .array(z.string().trim().regex(BODY_PATH, 'a JSON path such as $.customer.email or $.items[*].card'))
      .max(100)
      .default([]),
  })
  .strict();
export type MaskingRules = z.infer<typeof MaskingRulesSchema>;

export const CreateClusterRequestSchema = z
  .object({
    name: Name.max(100),
    nodes: nodeList,
    credentials: CredentialsInputSchema.optional(),
    /** The `Origin` sent to Jolokia; defaults to each node's own scheme and host (strict checking). */
    jolokiaOrigin: httpUrl.optional(),
    /** Refuse every action on this cluster's brokers (browsing and reading stay). */
    readOnly: z.boolean().optional(),
    /**
     * Keep Studio's durable ring of notifications on each live node, so a notifier restart loses
     * nothing (ADR-0015); on by default. Off: no queue of Studio's on the brokers.
     */
    notificationRing: z.boolean().optional(),
    /** The least role that may read message bodies (operator by default). */
    messageBodies: z.enum(MESSAGE_BODY_ROLES).optional(),
    masking: MaskingRulesSchema.optional(),
  })
  .strict();
export type CreateClusterRequest = z.infer<typeof CreateClusterRequestSchema>;

export const UpdateClusterRequestSchema = z
  .object({
    name: Name.max(100).optional(),
    nodes: nodeList.optional(),
    /** A kind set to null removes that credential. */
    credentials: z
      .object({
        jolokia: CredentialSchema.nullable().optional(),
        amqp: CredentialSchema.nullable().optional(),
      })
      .strict()
      .optional(),
    jolokiaOrigin: httpUrl.nullable().optional(),
    readOnly: z.boolean().optional(),
    notificationRing: z.boolean().optional(),
    messageBodies: z.enum(MESSAGE_BODY_ROLES).optional(),
    masking: MaskingRulesSchema.optional(),
  })
  .strict();
export type UpdateClusterRequest = z.infer<typeof UpdateClusterRequestSchema>;

const ClusterNodeSchema = z.object({
  id: Uuid,
  name: z.string(),
  jolokiaUrl: z.string(),
  amqpUrl: z.string().nullable(),
});

export const ClusterSummarySchema = z.object({
  id: Uuid,
  name: z.string(),
  nodes: z.array(ClusterNodeSchema),
  jolokiaOrigin: z.string().nullable(),
  /** Which credentials are stored; the secrets themselves are never returned. */
  credentials: z.object({ jolokia: z.boolean(), amqp: z.boolean() }),
  /** Actions on this cluster's brokers are refused (issue 28). */
  readOnly: z.boolean(),
  /** Studio keeps its durable ring of notifications on the brokers (ADR-0015, issue 30). */
  notificationRing: z.boolean(),
  /** The least role that may browse messages, bodies and properties (issue 28). */
  messageBodies: z.enum(MESSAGE_BODY_ROLES),
  masking: z.object({ properties: z.array(z.string()), bodyPaths: z.array(z.string()) }),
  createdAt: Instant,
  updatedAt: Instant,
});
export type ClusterSummary = z.infer<typeof ClusterSummarySchema>;

/** The replica of a service holding a cluster's lease, since when; null when none does now. */
export const ClusterOwnerSchema = z
  .object({ replica: z.string(), since: Instant, until: Instant })
  .nullable()
  .describe('the replica holding the lease, since when and until when unless renewed; null: none now');

export const ClusterDetailSchema = ClusterSummarySchema.extend({
  capabilities: z.object({ notifications: CapabilityVerdictSchema }),
  /** Which replica polls the cluster and which subscribes to it (issue 32): read from `studio_leases`. */
  owners: z.object({ scraper: ClusterOwnerSchema, notifier: ClusterOwnerSchema }),
});
export type ClusterDetail = z.infer<typeof ClusterDetailSchema>;
