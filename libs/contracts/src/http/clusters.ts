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

export const CreateClusterRequestSchema = z
  .object({
    name: Name.max(100),
    nodes: nodeList,
    credentials: CredentialsInputSchema.optional(),
    /** The `Origin` sent to Jolokia; defaults to each node's own scheme and host (strict checking). */
    jolokiaOrigin: httpUrl.optional(),
    /** Refuse every action on this cluster's brokers (browsing and reading stay). */
    readOnly: z.boolean().optional(),
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
  createdAt: Instant,
  updatedAt: Instant,
});
export type ClusterSummary = z.infer<typeof ClusterSummarySchema>;

export const ClusterDetailSchema = ClusterSummarySchema.extend({
  capabilities: z.object({ notifications: CapabilityVerdictSchema }),
});
export type ClusterDetail = z.infer<typeof ClusterDetailSchema>;
