import {
  ApiTokenSchema,
  AuditPageSchema,
  AuditQuerySchema,
  AuthConfigSchema,
  ChangePasswordRequestSchema,
  ClusterDetailSchema,
  ClusterSummarySchema,
  CreateClusterRequestSchema,
  CreatedTokenSchema,
  CreateGrantRequestSchema,
  CreateTokenRequestSchema,
  CreateUserRequestSchema,
  EventsPageSchema,
  EventsQuerySchema,
  GrantSchema,
  LiveListPageSchema,
  LiveListQuerySchema,
  MeSchema,
  MetricsQuerySchema,
  MetricsResponseSchema,
  AddressMetricsResponseSchema,
  PutSettingRequestSchema,
  QueueGrowthQuerySchema,
  QueueGrowthResponseSchema,
  QueuePageSchema,
  QueueQuerySchema,
  SettingSchema,
  SignInRequestSchema,
  StreamQuerySchema,
  TopologySchema,
  UpdateClusterRequestSchema,
  UpdateUserRequestSchema,
  UserSchema,
  BrokerChangeResultSchema,
  CreateAddressRequestSchema,
  CreateQueueRequestSchema,
  DeleteAddressQuerySchema,
  PauseQueueRequestSchema,
  QueueActionResultSchema,
  SendMessageRequestSchema,
  QueueImpactQuerySchema,
  QueueMessagesPageSchema,
  QueueMessagesQuerySchema,
  DeadLetterGroupsQuerySchema,
  DeadLetterGroupsSchema,
  MessageJobBodySchema,
  MessageJobImpactQuerySchema,
  MessageJobImpactSchema,
  MessageJobListQuerySchema,
  MessageJobListSchema,
  MessageJobSchema,
  AlertListQuerySchema,
  AlertListSchema,
  AlertRuleListSchema,
  AlertRuleTestSchema,
  AlertRuleSchema,
  AlertSchema,
  AlertSummarySchema,
  CreateAlertRuleRequestSchema,
  CreateReceiverRequestSchema,
  CreateSilenceRequestSchema,
  DeliveryListSchema,
  DeliveryQuerySchema,
  ReceiverListSchema,
  ReceiverSchema,
  SilenceListSchema,
  SilenceSchema,
  UpdateReceiverRequestSchema,
} from '@artemis-studio/contracts';
import { z } from 'zod';

/** One operation of the HTTP API, described from the contracts' own schemas. */
export interface Operation {
  summary: string;
  tag: 'access' | 'clusters' | 'state' | 'actions' | 'alerts' | 'settings' | 'stream' | 'api';
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The success status and what it carries (none for 204, a redirect or the event stream). */
  status: number;
  response?: z.ZodType;
  /** What is sent instead of JSON (the SSE stream, a redirect). */
  produces?: 'text/event-stream' | 'redirect';
  /** Request headers the operation reads (an action's Idempotency-Key). */
  headers?: { name: string; required: boolean; description: string }[];
  /** Answered by the cluster's owner: its failures (refused, busy, unreachable, timeout) may come back. */
  owner?: boolean;
}

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  required: true,
  description:
    'A new UUID per action, the same one when retrying it: a retry is answered what the first request was, and acts once',
};

/** A change made through the owner (a queue or an address made or removed, a message sent). */
const brokerChange = (summary: string, body?: z.ZodType): Operation => ({
  summary,
  tag: 'actions',
  ...(body ? { body } : {}),
  status: 200,
  response: BrokerChangeResultSchema,
  headers: [IDEMPOTENCY_KEY],
  owner: true,
});

/** A queue action: each answers with what every node did. */
const queueAction = (summary: string, body?: z.ZodObject): Operation => ({
  summary,
  tag: 'actions',
  ...(body ? { body } : {}),
  status: 200,
  response: QueueActionResultSchema,
  headers: [IDEMPOTENCY_KEY],
  owner: true,
});

/** A message job started: answered 202 with the job, which goes on in batches (ADR-0012). */
const messageJob = (summary: string): Operation => ({
  summary,
  tag: 'actions',
  body: MessageJobBodySchema,
  status: 202,
  response: MessageJobSchema,
  headers: [IDEMPOTENCY_KEY],
  owner: true,
});

/** Live consumers, sessions or connections: one route each, one shape. */
const liveList = (kind: 'consumers' | 'sessions' | 'connections'): Operation => ({
  summary: `Live ${kind}, read from the brokers`,
  tag: 'state',
  query: LiveListQuerySchema,
  status: 200,
  response: LiveListPageSchema,
});

/**
 * Every route the gateway serves, keyed as Nest declares it (`METHOD /path/:param`). The OpenAPI
 * document is generated from this table; a test fails when a route is missing here or described
 * here without being served, so the two cannot drift.
 */
export const OPERATIONS: Record<string, Operation> = {
  'GET /api/v1/auth/config': {
    summary: 'The ways to sign in',
    tag: 'access',
    status: 200,
    response: AuthConfigSchema,
  },
  'POST /api/v1/auth/sign-in': {
    summary: 'Sign in with a Studio account (sets the session cookie)',
    tag: 'access',
    body: SignInRequestSchema,
    status: 200,
    response: MeSchema,
  },
  'POST /api/v1/auth/sign-out': { summary: 'End this session, on every replica', tag: 'access', status: 204 },
  'POST /api/v1/auth/password': {
    summary: 'Change your own password (ends your sessions)',
    tag: 'access',
    body: ChangePasswordRequestSchema,
    status: 204,
  },
  'GET /api/v1/auth/me': {
    summary: 'Who is signed in, and their grants',
    tag: 'access',
    status: 200,
    response: MeSchema,
  },
  'GET /api/v1/auth/oidc/start': {
    summary: 'Start signing in with the identity provider',
    tag: 'access',
    query: z.object({ returnTo: z.string().optional() }),
    status: 302,
    produces: 'redirect',
  },
  'GET /api/v1/auth/oidc/callback': {
    summary: "The identity provider's return (authorization code)",
    tag: 'access',
    query: z.object({ code: z.string().optional(), state: z.string().optional() }),
    status: 302,
    produces: 'redirect',
  },
  'GET /api/v1/users': {
    summary: 'Users and service accounts',
    tag: 'access',
    status: 200,
    response: z.array(UserSchema),
  },
  'POST /api/v1/users': {
    summary: 'Add a user or a service account',
    tag: 'access',
    body: CreateUserRequestSchema,
    status: 201,
    response: UserSchema,
  },
  'PATCH /api/v1/users/:userId': {
    summary: 'Disable or enable a user, or set their password',
    tag: 'access',
    body: UpdateUserRequestSchema,
    status: 200,
    response: UserSchema,
  },
  'DELETE /api/v1/users/:userId': { summary: 'Remove a user', tag: 'access', status: 204 },
  'GET /api/v1/grants': {
    summary: 'Who holds which role where',
    tag: 'access',
    status: 200,
    response: z.array(GrantSchema),
  },
  'POST /api/v1/grants': {
    summary: 'Grant a role to a user or group',
    tag: 'access',
    body: CreateGrantRequestSchema,
    status: 201,
    response: GrantSchema,
  },
  'DELETE /api/v1/grants/:grantId': { summary: 'Revoke a grant', tag: 'access', status: 204 },
  'GET /api/v1/tokens': {
    summary: 'API tokens (your own; an administrator sees all)',
    tag: 'access',
    status: 200,
    response: z.array(ApiTokenSchema),
  },
  'POST /api/v1/tokens': {
    summary: 'Create an API token (its secret is in this answer only)',
    tag: 'access',
    body: CreateTokenRequestSchema,
    status: 201,
    response: CreatedTokenSchema,
  },
  'DELETE /api/v1/tokens/:tokenId': { summary: 'Revoke an API token', tag: 'access', status: 204 },
  'GET /api/v1/audit': {
    summary: 'The audit trail, newest first',
    tag: 'access',
    query: AuditQuerySchema,
    status: 200,
    response: AuditPageSchema,
  },
  'POST /api/v1/clusters': {
    summary: 'Register a cluster',
    tag: 'clusters',
    body: CreateClusterRequestSchema,
    status: 201,
    response: ClusterSummarySchema,
  },
  'GET /api/v1/clusters': {
    summary: 'The clusters you hold a role on',
    tag: 'clusters',
    status: 200,
    response: z.array(ClusterSummarySchema),
  },
  'GET /api/v1/clusters/:id': {
    summary: 'A cluster, with its cached notification verdict',
    tag: 'clusters',
    status: 200,
    response: ClusterDetailSchema,
  },
  'PATCH /api/v1/clusters/:id': {
    summary: "Change a cluster's registration",
    tag: 'clusters',
    body: UpdateClusterRequestSchema,
    status: 200,
    response: ClusterSummarySchema,
  },
  'DELETE /api/v1/clusters/:id': {
    summary: 'Remove a cluster (the brokers are not touched)',
    tag: 'clusters',
    status: 204,
  },
  'GET /api/v1/clusters/:id/topology': {
    summary: 'Nodes, HA roles, health',
    tag: 'state',
    status: 200,
    response: TopologySchema,
  },
  'GET /api/v1/clusters/:id/queues': {
    summary: 'Queues with their depth and rates, paged and sortable',
    tag: 'state',
    query: QueueQuerySchema,
    status: 200,
    response: QueuePageSchema,
  },
  'GET /api/v1/clusters/:id/events': {
    summary: 'Broker event history, newest first, with drops',
    tag: 'state',
    query: EventsQuerySchema,
    status: 200,
    response: EventsPageSchema,
  },
  'GET /api/v1/clusters/:id/metrics': {
    summary: "The cluster's series over time, per node and in total",
    tag: 'state',
    query: MetricsQuerySchema,
    status: 200,
    response: MetricsResponseSchema,
  },
  'GET /api/v1/clusters/:id/queues/growth': {
    summary: 'The queues filling fastest',
    tag: 'state',
    query: QueueGrowthQuerySchema,
    status: 200,
    response: QueueGrowthResponseSchema,
  },
  'GET /api/v1/clusters/:id/queues/:queue/metrics': {
    summary: "One queue's series over time",
    tag: 'state',
    query: MetricsQuerySchema,
    status: 200,
    response: MetricsResponseSchema,
  },
  'GET /api/v1/clusters/:id/addresses/:address/metrics': {
    summary: "One address's size, pages, limit percentage and paging over time",
    tag: 'state',
    query: MetricsQuerySchema,
    status: 200,
    response: AddressMetricsResponseSchema,
  },
  'GET /api/v1/clusters/:id/queues/:queue/messages': {
    summary: "One page of a queue's messages on one node, bodies as the broker shows them (operator)",
    tag: 'actions',
    query: QueueMessagesQuerySchema,
    status: 200,
    response: QueueMessagesPageSchema,
    owner: true,
  },
  'GET /api/v1/clusters/:id/queues/:queue/impact': {
    summary:
      'What a purge, a delete or a retry would take from the queue, counted by the broker; nothing changes',
    tag: 'actions',
    query: QueueImpactQuerySchema,
    status: 200,
    response: QueueActionResultSchema,
    owner: true,
  },
  'POST /api/v1/clusters/:id/queues': brokerChange(
    'Create a queue on every live node',
    CreateQueueRequestSchema,
  ),
  'POST /api/v1/clusters/:id/queues/:queue/messages': brokerChange(
    'Send one message to the queue, on one node (a Core message; headers become String properties)',
    SendMessageRequestSchema,
  ),
  'POST /api/v1/clusters/:id/addresses/:address/messages': brokerChange(
    'Send one message to an address, routed to every queue bound to it, on one node',
    SendMessageRequestSchema,
  ),
  'POST /api/v1/clusters/:id/addresses': brokerChange(
    'Create an address on every live node (admin)',
    CreateAddressRequestSchema,
  ),
  'DELETE /api/v1/clusters/:id/addresses/:address': {
    ...brokerChange(
      'Delete an address on every live node (admin); refused while queues are bound unless removeQueues=true',
    ),
    query: DeleteAddressQuerySchema,
  },
  'POST /api/v1/clusters/:id/queues/:queue/pause': queueAction(
    'Pause a queue on every live node',
    PauseQueueRequestSchema,
  ),
  'POST /api/v1/clusters/:id/queues/:queue/resume': queueAction('Resume a paused queue on every live node'),
  'POST /api/v1/clusters/:id/queues/:queue/purge': queueAction(
    'Remove every message of a queue, on every live node',
  ),
  'POST /api/v1/clusters/:id/queues/:queue/retry': queueAction(
    "Send a dead-letter or expiry queue's messages back to the queues they came from",
  ),
  'DELETE /api/v1/clusters/:id/queues/:queue': queueAction('Delete a queue (refused while it has consumers)'),
  'GET /api/v1/clusters/:id/queues/:queue/messages/impact': {
    summary:
      'How many messages a move, copy, retry or delete would touch, counted by the broker (a lower bound past its browse limit)',
    tag: 'actions',
    query: MessageJobImpactQuerySchema,
    status: 200,
    response: MessageJobImpactSchema,
    owner: true,
  },
  'POST /api/v1/clusters/:id/queues/:queue/messages/move': messageJob(
    'Move messages to another queue (chosen, by filter, or all), or into a quarantine queue, in batches',
  ),
  'POST /api/v1/clusters/:id/queues/:queue/messages/copy': messageJob(
    'Copy chosen messages to another queue (the broker copies by id only)',
  ),
  'POST /api/v1/clusters/:id/queues/:queue/messages/retry': messageJob(
    'Send chosen messages, or a dead-letter group (origin), back where they came from, or into a quarantine first',
  ),
  'POST /api/v1/clusters/:id/queues/:queue/messages/delete': messageJob(
    'Delete chosen messages, by filter, or all (one broker call for a filter: it cannot be cancelled)',
  ),
  'GET /api/v1/clusters/:id/queues/:queue/dead-letters': {
    summary: "A dead-letter or expiry queue's messages grouped by the queue they came from",
    tag: 'actions',
    query: DeadLetterGroupsQuerySchema,
    status: 200,
    response: DeadLetterGroupsSchema,
    owner: true,
  },
  'GET /api/v1/clusters/:id/message-jobs': {
    summary: "The cluster's most recent message jobs, newest first (of one queue with ?queue=)",
    tag: 'actions',
    query: MessageJobListQuerySchema,
    status: 200,
    response: MessageJobListSchema,
  },
  'GET /api/v1/clusters/:id/message-jobs/:jobId': {
    summary: 'One message job: its status and what each node has done so far',
    tag: 'actions',
    status: 200,
    response: MessageJobSchema,
  },
  'POST /api/v1/clusters/:id/message-jobs/:jobId/cancel': {
    summary: 'Stop a message job after its current batch; what was done is reported exactly',
    tag: 'actions',
    status: 200,
    response: MessageJobSchema,
  },
  'GET /api/v1/alerts': {
    summary: 'Alerts across the clusters you hold a role on: active (firing and pending) by default',
    tag: 'alerts',
    query: AlertListQuerySchema,
    status: 200,
    response: AlertListSchema,
  },
  'GET /api/v1/alerts/summary': {
    summary: "The header's count, and the clusters whose rules were not evaluated lately (never green then)",
    tag: 'alerts',
    status: 200,
    response: AlertSummarySchema,
  },
  'GET /api/v1/clusters/:id/alerts/:alertId': {
    summary: 'One alert',
    tag: 'alerts',
    status: 200,
    response: AlertSchema,
  },
  'GET /api/v1/clusters/:id/alert-rules': {
    summary: "The cluster's alert rules",
    tag: 'alerts',
    status: 200,
    response: AlertRuleListSchema,
  },
  'POST /api/v1/clusters/:id/alert-rules': {
    summary: 'Add an alert rule (evaluated by the owner from its next tick)',
    tag: 'alerts',
    body: CreateAlertRuleRequestSchema,
    status: 201,
    response: AlertRuleSchema,
  },
  'POST /api/v1/clusters/:id/alert-rules/test': {
    summary:
      "Read a rule against the owner's last figures: which subjects it matches, which hold now (nothing stored)",
    tag: 'alerts',
    body: CreateAlertRuleRequestSchema,
    status: 200,
    response: AlertRuleTestSchema,
    owner: true,
  },
  'PUT /api/v1/clusters/:id/alert-rules/:ruleId': {
    summary: 'Change an alert rule (disabling it resolves its alerts)',
    tag: 'alerts',
    body: CreateAlertRuleRequestSchema,
    status: 200,
    response: AlertRuleSchema,
  },
  'DELETE /api/v1/clusters/:id/alert-rules/:ruleId': {
    summary: 'Delete an alert rule; its open alerts resolve at the next tick and receivers are told',
    tag: 'alerts',
    status: 204,
  },
  'GET /api/v1/clusters/:id/alert-silences': {
    summary: 'Silences in force, and those ended within the last day',
    tag: 'alerts',
    status: 200,
    response: SilenceListSchema,
  },
  'POST /api/v1/clusters/:id/alert-silences': {
    summary: 'Mute matching alerts until a time, with a reason (still evaluated and listed, not notified)',
    tag: 'alerts',
    body: CreateSilenceRequestSchema,
    status: 201,
    response: SilenceSchema,
  },
  'POST /api/v1/clusters/:id/alert-silences/:silenceId/end': {
    summary: 'End a silence before its time',
    tag: 'alerts',
    status: 201,
    response: SilenceSchema,
  },
  'GET /api/v1/clusters/:id/alert-receivers': {
    summary: "Where the cluster's alerts are sent (secrets are never returned)",
    tag: 'alerts',
    status: 200,
    response: ReceiverListSchema,
  },
  'POST /api/v1/clusters/:id/alert-receivers': {
    summary: 'Add a receiver: Alertmanager, or a signed webhook',
    tag: 'alerts',
    body: CreateReceiverRequestSchema,
    status: 201,
    response: ReceiverSchema,
  },
  'PUT /api/v1/clusters/:id/alert-receivers/:receiverId': {
    summary: 'Change a receiver (a secret left out keeps the sealed one)',
    tag: 'alerts',
    body: UpdateReceiverRequestSchema,
    status: 200,
    response: ReceiverSchema,
  },
  'DELETE /api/v1/clusters/:id/alert-receivers/:receiverId': {
    summary: 'Remove a receiver, with what it was still owed',
    tag: 'alerts',
    status: 204,
  },
  'GET /api/v1/clusters/:id/alert-deliveries': {
    summary: 'The delivery log: every notification owed, its tries and its last error, newest first',
    tag: 'alerts',
    query: DeliveryQuerySchema,
    status: 200,
    response: DeliveryListSchema,
  },
  'GET /api/v1/clusters/:id/consumers': liveList('consumers'),
  'GET /api/v1/clusters/:id/sessions': liveList('sessions'),
  'GET /api/v1/clusters/:id/connections': liveList('connections'),
  'GET /api/v1/settings': {
    summary: 'Runtime settings',
    tag: 'settings',
    status: 200,
    response: z.array(SettingSchema),
  },
  'GET /api/v1/settings/:key': {
    summary: 'One runtime setting',
    tag: 'settings',
    status: 200,
    response: SettingSchema,
  },
  'PUT /api/v1/settings/:key': {
    summary: 'Override a runtime setting',
    tag: 'settings',
    body: PutSettingRequestSchema,
    status: 200,
    response: SettingSchema,
  },
  'GET /api/v1/stream': {
    summary: "A cluster's live signals and events (Server-Sent Events; docs/http-stream.md)",
    tag: 'stream',
    query: StreamQuerySchema,
    status: 200,
    produces: 'text/event-stream',
  },
  'GET /api/v1/openapi.json': { summary: 'This document', tag: 'api', status: 200 },
};
