import { z } from 'zod';
import { Instant, Uuid } from '../common';

/**
 * Who may see and do what (docs/security.md). A role is granted on all clusters (`*`) or on
 * cluster names matching a pattern; the strongest grant matching a cluster is the role there.
 */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** `*` for every cluster, or a name pattern where `*` matches any run of characters (`prod-*`). */
export const ClusterPatternSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\s]+$/, 'a cluster pattern has no spaces');

export const AUTH_MODES = ['session', 'none'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** What the sign-in page needs before anyone has signed in. */
export const AuthConfigSchema = z.object({
  mode: z.enum(AUTH_MODES),
  local: z.boolean(),
  /** Set when an identity provider is configured: the button reads "Sign in with {name}". */
  oidc: z.object({ name: z.string() }).nullable(),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;

export const SignInRequestSchema = z
  .object({ username: z.string().trim().min(1).max(200), password: z.string().min(1).max(1000) })
  .strict();
export type SignInRequest = z.infer<typeof SignInRequestSchema>;

export const GrantSubjectKindSchema = z.enum(['user', 'group']);

export const GrantSchema = z.object({
  id: Uuid,
  subjectKind: GrantSubjectKindSchema,
  /** A user's id, or a group name as the identity provider sends it. */
  subject: z.string(),
  role: RoleSchema,
  clusters: ClusterPatternSchema,
  createdAt: Instant,
});
export type Grant = z.infer<typeof GrantSchema>;

export const CreateGrantRequestSchema = z
  .object({
    subjectKind: GrantSubjectKindSchema,
    subject: z.string().trim().min(1).max(200),
    role: RoleSchema,
    clusters: ClusterPatternSchema.default('*'),
  })
  .strict();
export type CreateGrantRequest = z.infer<typeof CreateGrantRequestSchema>;

/** The signed-in principal as the console shows it: who, how, and the grants in force. */
export const MeSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['local', 'oidc', 'service', 'anonymous']),
  via: z.enum(['session', 'token', 'none']),
  groups: z.array(z.string()),
  grants: z.array(z.object({ role: RoleSchema, clusters: ClusterPatternSchema })),
  /** Admin on every cluster: settings, users, tokens, grants and the audit trail. */
  administrator: z.boolean(),
});
export type Me = z.infer<typeof MeSchema>;

export const UserKindSchema = z.enum(['local', 'oidc', 'service']);

export const UserSchema = z.object({
  id: Uuid,
  username: z.string(),
  kind: UserKindSchema,
  groups: z.array(z.string()),
  disabled: z.boolean(),
  createdAt: Instant,
  lastSignInAt: Instant.nullable(),
});
export type User = z.infer<typeof UserSchema>;

const Username = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._@-]+$/, 'letters, digits and . _ @ - only');
/** Long enough that a guess at ten tries a minute never gets there. */
const Password = z.string().min(12, 'at least 12 characters').max(1000);

/** A local user signs in with a password; a service account only ever holds tokens. */
export const CreateUserRequestSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('local'),
      username: Username,
      password: Password,
      role: RoleSchema.optional(),
      clusters: ClusterPatternSchema.default('*'),
    })
    .strict(),
  z
    .object({
      kind: z.literal('service'),
      username: Username,
      role: RoleSchema.optional(),
      clusters: ClusterPatternSchema.default('*'),
    })
    .strict(),
]);
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>;

export const UpdateUserRequestSchema = z
  .object({ disabled: z.boolean().optional(), password: Password.optional() })
  .strict();
export type UpdateUserRequest = z.infer<typeof UpdateUserRequestSchema>;

/** A local user changes their own password, proving the current one. */
export const ChangePasswordRequestSchema = z
  .object({ currentPassword: z.string().min(1).max(1000), newPassword: Password })
  .strict();
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const ApiTokenSchema = z.object({
  id: Uuid,
  name: z.string(),
  ownerId: Uuid,
  ownerName: z.string(),
  /** The token never acts beyond this, nor beyond its owner's own grants. */
  role: RoleSchema,
  clusters: ClusterPatternSchema,
  createdAt: Instant,
  expiresAt: Instant.nullable(),
  lastUsedAt: Instant.nullable(),
  revokedAt: Instant.nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

export const CreateTokenRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    role: RoleSchema,
    clusters: ClusterPatternSchema.default('*'),
    /** An admin may create a token for a service account; anyone else only for themself. */
    ownerId: Uuid.optional(),
    expiresInDays: z.number().int().min(1).max(3650).optional(),
  })
  .strict();
export type CreateTokenRequest = z.infer<typeof CreateTokenRequestSchema>;

/** The secret is in this answer and nowhere else, ever again. */
export const CreatedTokenSchema = z.object({ token: ApiTokenSchema, secret: z.string() });
export type CreatedToken = z.infer<typeof CreatedTokenSchema>;

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;

/** One mutating request, or one sign-in attempt: who, from where, as what, did what, and how it ended. */
export const AuditEventSchema = z.object({
  seq: z.number().int(),
  at: Instant,
  actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string() }),
  address: z.string().nullable(),
  role: RoleSchema.nullable(),
  action: z.string(),
  clusterId: Uuid.nullable(),
  target: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  status: z.number().int(),
  code: z.string().nullable(),
  requestId: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditQuerySchema = z
  .object({
    actor: z.string().max(200).optional(),
    action: z.string().max(100).optional(),
    clusterId: Uuid.optional(),
    outcome: z.enum(AUDIT_OUTCOMES).optional(),
    from: Instant.optional(),
    to: Instant.optional(),
    /** Older than this seq: the next page of a newest-first listing. */
    before: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditPageSchema = z.object({
  items: z.array(AuditEventSchema),
  /** Pass as `before` for the next page; null at the oldest. */
  nextBefore: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;
